// Live events: one poller per instance and feed reads newly sequenced rows (order_events, or contractor_events:
// feed-source.ts) and fans them out to open SSE streams. Why polling by `seq`: docs/decisions.md, the event feed.
import { PassThrough } from "node:stream";
import type { Db } from "../../db/knex.js";
import type { ChangeFeed } from "../../db/change-feed.js";
import { startBackgroundJob, type BackgroundJob } from "../../background-job.js";
import type { FeedSource, ScopedFeed } from "./feed-source.js";
import type { EventScope } from "./feed.js";
import type { FeedSequencer } from "./sequencer.js";
import { endRevoked, reserveSlot, resumeHint, sweepStreams, type Ending, type StreamLimits } from "./stream-limits.js";
import { endWith, offerLive, replay, writeComment, type Subscriber } from "./subscriber.js";

export interface StreamOptions extends StreamLimits {
  pollMs: number;
  /** Open streams' keys are checked against revocation at least this often (and at once on a change notice). */
  keyCheckMs: number;
}
export interface StreamDeps {
  db: Db;
  sequencer: Pick<FeedSequencer, "sequenceNow">;
  revokedKeys(ids: string[]): Promise<Set<string>>;
  changes: Pick<ChangeFeed, "on">;
}

interface Hub {
  subscribers: Set<Subscriber>;
  perKey: Map<string, number>;
  ending: Ending;
  /** Every seq <= low has been fanned out. */
  low: number | null;
  job: BackgroundJob | null;
  /** Streams between their reservation and their subscription (the hub must not go idle under them). */
  opening: number;
  keysCheckedAt: number;
}

/** Fans out rows in seq order; a stream hands each row on only if it is for its tenant and already live. */
async function poll(db: Db, hub: Hub, source: FeedSource<never>): Promise<number> {
  hub.low ??= await source.latestSeq(db);
  const rows = await source.rowsAfter(db, hub.low, 500);
  for (const row of rows) {
    hub.low = Number(row.seq);
    for (const sub of hub.subscribers) offerLive(sub, row);
  }
  return rows.length;
}

async function checkKeys(deps: StreamDeps, hub: Hub, options: StreamOptions): Promise<void> {
  hub.keysCheckedAt = Date.now();
  const ids = [...new Set([...hub.subscribers].map((sub) => sub.keyId))];
  if (ids.length === 0) return;
  endRevoked(hub.subscribers, await deps.revokedKeys(ids), hub.ending, options, Date.now());
}

/** One tick: streams' limits, revoked keys when due, then new events; nobody listening: no query at all. */
async function tick(deps: StreamDeps, hub: Hub, options: StreamOptions, source: FeedSource<never>): Promise<number> {
  sweepStreams(hub.subscribers, hub.ending, options, Date.now());
  if (hub.subscribers.size === 0 && hub.opening === 0) {
    hub.low = null;
    return 0;
  }
  if (Date.now() - hub.keysCheckedAt >= options.keyCheckMs) await checkKeys(deps, hub, options);
  return poll(deps.db, hub, source);
}

export interface OpenAt {
  feed: ScopedFeed;
  /** The resume point (Last-Event-ID or `after`); none: an order's whole history, else only new events. */
  after?: number;
  base: string;
  keyId: string;
  /** Aborted when the client goes away (before or after the stream is handed to it). */
  signal: AbortSignal;
}

/** Puts the stream in the hub (freed again on close, error or abort), replaying before it turns live. */
function subscribe(deps: StreamDeps, hub: Hub, at: OpenAt, release: () => void): PassThrough {
  const stream = new PassThrough();
  const now = Date.now();
  const sub: Subscriber = {
    feed: at.feed,
    base: at.base,
    keyId: at.keyId,
    stream,
    openedAt: now,
    lastWriteAt: now,
    live: false,
    through: at.after ?? (at.feed.fromStart ? 0 : hub.low!),
    release: () => {
      hub.subscribers.delete(sub);
      release();
    },
  };
  hub.subscribers.add(sub);
  const abort = () => {
    stream.destroy();
  };
  stream.on("close", () => {
    sub.release();
    at.signal.removeEventListener("abort", abort);
  });
  stream.on("error", () => {
    sub.release(); // a cut stream errors before Hapi may have attached its own listener
  });
  at.signal.addEventListener("abort", abort);
  if (at.signal.aborted) abort();
  writeComment(sub, "stream open");
  void replay(deps.db, sub, () => hub.low!).catch(() => stream.destroy(new Error("event replay failed")));
  return stream;
}

/** An SSE body: the scope's events after the resume point from the table, then live ones, each exactly once. */
async function open(
  deps: StreamDeps,
  hub: Hub,
  options: StreamOptions,
  at: OpenAt,
  source: FeedSource<never>,
): Promise<PassThrough> {
  const release = reserveSlot(hub.perKey, at.keyId, options.perKey);
  hub.opening++;
  try {
    await deps.sequencer.sequenceNow(); // the caller's own writes are in the replay
    if (hub.low === null) await poll(deps.db, hub, source);
    return subscribe(deps, hub, at, release);
  } catch (error) {
    release();
    throw error;
  } finally {
    hub.opening--;
  }
}

export function createEventStreams<Scope>(deps: StreamDeps, options: StreamOptions, source: FeedSource<Scope>) {
  const hub: Hub = {
    subscribers: new Set(),
    perKey: new Map(),
    ending: new Map(),
    low: null,
    job: null,
    opening: 0,
    keysCheckedAt: 0,
  };
  deps.changes.on((table) => {
    if (table === "api_keys" || table === "*") hub.keysCheckedAt = 0;
  });
  return {
    /** Polls every pollMs (no longer after a failed tick: a live stream should not fall behind by a backoff). */
    start(onError: (error: unknown) => void) {
      hub.job ??= startBackgroundJob(
        () => tick(deps, hub, options, source),
        { intervalMs: options.pollMs, maxBackoffMs: options.pollMs },
        onError,
      );
    },
    async stop() {
      await hub.job?.stop();
      hub.job = null;
      // Ended, not cut: clients get the last comment; the HTTP server's stop timeout bounds the ones not reading.
      for (const sub of [...hub.subscribers]) endWith(sub, `server stopping; ${resumeHint}`);
    },
    open: (at: OpenAt): Promise<PassThrough> => open(deps, hub, options, at, source),
    scoped: (scope: Scope): ScopedFeed => source.scoped(scope),
    /** Open streams (`live`: those past their replay), opening ones and reserved slots. */
    stats: () => ({
      streams: hub.subscribers.size,
      live: [...hub.subscribers].filter((sub) => sub.live).length,
      opening: hub.opening,
      slots: [...hub.perKey.values()].reduce((a, b) => a + b, 0),
    }),
  };
}

export type EventStreams<Scope = EventScope> = ReturnType<typeof createEventStreams<Scope>>;
