// Live events: one poller per instance reads new order_events rows and fans them out to open SSE streams.
// Polling, not LISTEN/NOTIFY: it works the same on PGlite and Postgres, costs one indexed query per interval
// per instance whatever the number of streams, and sees rows committed by any instance sharing the database.
import { PassThrough } from "node:stream";
import type { Db } from "../../db/knex.js";
import { eventRows, toEvent, type DispatchEvent, type EventRow, type EventScope } from "./feed.js";

interface Subscriber {
  scope: EventScope;
  base: string;
  send(event: DispatchEvent): void;
}
export interface StreamOptions {
  pollMs: number;
  heartbeatMs: number;
  /** How long an id gap may stay open (a transaction still committing) before it is taken as rolled back. */
  gapMs: number;
}

const frame = (event: DispatchEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

interface Hub {
  subscribers: Set<Subscriber>;
  streams: Set<PassThrough>;
  /** Every id <= low has been fanned out (or skipped as a rolled-back gap). */
  low: number | null;
  gapSince: number | null;
  timer: NodeJS.Timeout | null;
  polling: Promise<void> | null;
  /** Streams between their first poll and their subscription (the hub must not go idle under them). */
  opening: number;
}

const matches = (scope: EventScope, row: EventRow) =>
  (!scope.account || scope.account === row.account) &&
  (!scope.environment || scope.environment === row.environment) &&
  (!scope.orderId || scope.orderId === row.order_id);

/** Fans out rows in id order and only past contiguous ids, so a resume point never skips a late commit. */
async function poll(db: Db, hub: Hub, gapMs: number): Promise<void> {
  hub.low ??= Number((await db("order_events").max({ max: "id" }))[0]?.max ?? 0);
  const rows: EventRow[] = await eventRows(db, hub.low, {}).limit(500);
  for (const row of rows) {
    const seq = Number(row.id);
    if (seq !== hub.low + 1 && (hub.gapSince ??= Date.now()) > Date.now() - gapMs) break;
    hub.gapSince = null;
    hub.low = seq;
    for (const sub of hub.subscribers) if (matches(sub.scope, row)) sub.send(toEvent(row, sub.base));
  }
}

/** The database may be restarting; the next poll catches up from `low`. */
const retryNextPoll = (): void => undefined;

/** Nobody listens: read nothing (a busy instance makes thousands of events a second); the next stream to open
 * starts from the newest id again, as a first stream does. */
function restWhenUnwatched(hub: Hub): boolean {
  if (hub.subscribers.size > 0 || hub.opening > 0) return false;
  hub.low = null;
  hub.gapSince = null;
  return true;
}

function schedule(db: Db, hub: Hub, options: StreamOptions): void {
  hub.timer = setTimeout(() => {
    hub.polling = (restWhenUnwatched(hub) ? Promise.resolve() : poll(db, hub, options.gapMs))
      .catch(retryNextPoll)
      .finally(() => {
        if (hub.timer) schedule(db, hub, options);
      });
  }, options.pollMs);
}

/** Writes each event once, in order: live events queue while the table replay runs, then drain. */
function subscribe(hub: Hub, stream: PassThrough, scope: EventScope, base: string, afterSeq: number) {
  const queue: DispatchEvent[] = [];
  let replaying = true;
  let last = afterSeq;
  const write = (event: DispatchEvent) => {
    const seq = Number(event.id.slice(4));
    if (seq <= last) return;
    last = seq;
    stream.write(frame(event));
  };
  const sub: Subscriber = {
    scope,
    base,
    send: (event) => {
      if (replaying) queue.push(event);
      else write(event);
    },
  };
  hub.subscribers.add(sub);
  hub.streams.add(stream);
  const live = () => {
    replaying = false;
    for (const event of queue.splice(0)) write(event);
  };
  return { sub, write, live };
}

/** The first poll (when the hub is idle) and the subscription, with the hub held awake in between. */
async function join(db: Db, hub: Hub, options: StreamOptions, stream: PassThrough, at: OpenAt) {
  hub.opening++;
  try {
    if (hub.low === null) await poll(db, hub, options.gapMs);
    const afterSeq = at.after ?? (at.scope.orderId ? 0 : hub.low!); // no resume point: an order's history, else new events
    return { afterSeq, ...subscribe(hub, stream, at.scope, at.base, afterSeq) };
  } finally {
    hub.opening--;
  }
}

interface OpenAt {
  scope: EventScope;
  after?: number;
  base: string;
}

/** An SSE body: the events after `afterSeq` from the table, then live ones, each exactly once. */
async function open(db: Db, hub: Hub, options: StreamOptions, at: OpenAt) {
  const { scope, base } = at;
  const stream = new PassThrough();
  const { afterSeq, sub, write, live } = await join(db, hub, options, stream, at);
  const upto = hub.low!;
  const heartbeat = setInterval(() => stream.write(": heartbeat\n\n"), options.heartbeatMs);
  stream.on("close", () => {
    clearInterval(heartbeat);
    hub.subscribers.delete(sub);
    hub.streams.delete(stream);
  });
  stream.write(": stream open\n\n");
  for (const row of await eventRows(db, afterSeq, scope).where("e.id", "<=", upto)) write(toEvent(row, base));
  live();
  return stream;
}

export function createEventStreams(db: Db, options: StreamOptions) {
  const hub: Hub = {
    subscribers: new Set(),
    streams: new Set(),
    low: null,
    gapSince: null,
    timer: null,
    polling: null,
    opening: 0,
  };
  return {
    start() {
      if (!hub.timer) schedule(db, hub, options);
    },
    async stop() {
      if (hub.timer) clearTimeout(hub.timer);
      hub.timer = null;
      await hub.polling;
      for (const stream of hub.streams) stream.end();
    },
    open: (scope: EventScope, after: number | undefined, base: string): Promise<PassThrough> =>
      open(db, hub, options, { scope, after, base }),
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
