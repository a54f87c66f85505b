// Live events: one poller per instance reads newly sequenced order_events rows and fans them out to open SSE
// streams. Polling, not LISTEN/NOTIFY: it works the same on PGlite and Postgres, costs one indexed query per
// interval per instance whatever the number of streams, and sees rows committed by any instance sharing the
// database. It reads by `seq`, which has no holes (sequencer.ts), so it never waits for anything.
import { PassThrough } from "node:stream";
import type { Db } from "../../db/knex.js";
import type { ChangeFeed } from "../../db/change-feed.js";
import { startBackgroundJob, type BackgroundJob } from "../../background-job.js";
import { feedRows, latestSeq, type EventRow, type EventScope } from "./feed.js";
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
  /** Which of these key ids are revoked now. */
  revokedKeys(ids: string[]): Promise<Set<string>>;
  changes: Pick<ChangeFeed, "on">;
}

interface Hub {
  subscribers: Set<Subscriber>;
  perKey: Map<string, number>;
  ending: Ending;
  /** Every seq <= low has been fanned out. */
  low: number | null;
  /** The poller, from start() until stop(). */
  job: BackgroundJob | null;
  /** Streams between their reservation and their subscription (the hub must not go idle under them). */
  opening: number;
  keysCheckedAt: number;
}

/** Fans out rows in seq order; a stream hands each row on only if it is for its tenant and already live. */
async function poll(db: Db, hub: Hub): Promise<number> {
  hub.low ??= await latestSeq(db);
  const rows: EventRow[] = await feedRows(db, hub.low).limit(500);
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

/** One tick: streams' limits, revoked keys when due, then new events (how many). Nobody listening: no query at
 * all (a busy instance makes thousands of events a second), and the next stream starts from the newest seq again.
 * A failed tick (the database may be restarting) is logged by the job; the next one catches up from `low`. */
async function tick(deps: StreamDeps, hub: Hub, options: StreamOptions): Promise<number> {
  sweepStreams(hub.subscribers, hub.ending, options, Date.now());
  if (hub.subscribers.size === 0 && hub.opening === 0) {
    hub.low = null;
    return 0;
  }
  if (Date.now() - hub.keysCheckedAt >= options.keyCheckMs) await checkKeys(deps, hub, options);
  return poll(deps.db, hub);
}

export interface OpenAt {
  scope: EventScope;
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
    scope: at.scope,
    base: at.base,
    keyId: at.keyId,
    stream,
    openedAt: now,
    lastWriteAt: now,
    live: false,
    through: at.after ?? (at.scope.orderId ? 0 : hub.low!),
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
async function open(deps: StreamDeps, hub: Hub, options: StreamOptions, at: OpenAt): Promise<PassThrough> {
  const release = reserveSlot(hub.perKey, at.keyId, options.perKey);
  hub.opening++;
  try {
    await deps.sequencer.sequenceNow(); // the caller's own writes are in the replay
    if (hub.low === null) await poll(deps.db, hub);
    return subscribe(deps, hub, at, release);
  } catch (error) {
    release();
    throw error;
  } finally {
    hub.opening--;
  }
}

export function createEventStreams(deps: StreamDeps, options: StreamOptions) {
  const hub: Hub = {
    subscribers: new Set(),
    perKey: new Map(),
    ending: new Map(),
    low: null,
    job: null,
    opening: 0,
    keysCheckedAt: 0,
  };
  // A revocation anywhere is announced on the change feed: check at the next tick rather than the next due one.
  deps.changes.on((table) => {
    if (table === "api_keys" || table === "*") hub.keysCheckedAt = 0;
  });
  return {
    /** Polls every pollMs (no longer after a failed tick: a live stream should not fall behind by a backoff). */
    start(onError: (error: unknown) => void) {
      hub.job ??= startBackgroundJob(
        () => tick(deps, hub, options),
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
    open: (at: OpenAt): Promise<PassThrough> => open(deps, hub, options, at),
    /** Open streams (`live`: of those, the ones past their replay), opening ones and reserved slots (all 0 when
     * every stream has been cleaned up). */
    stats: () => ({
      streams: hub.subscribers.size,
      live: [...hub.subscribers].filter((sub) => sub.live).length,
      opening: hub.opening,
      slots: [...hub.perKey.values()].reduce((a, b) => a + b, 0),
    }),
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
