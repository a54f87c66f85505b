// Live events: one poller per instance reads new order_events rows and fans them out to open SSE streams.
// Polling, not LISTEN/NOTIFY: it works the same on PGlite and Postgres, costs one indexed query per interval
// per instance whatever the number of streams, and sees rows committed by any instance sharing the database.
import { PassThrough } from "node:stream";
import type { Db } from "../../db/knex.js";
import { eventRows, toEvent, type DispatchEvent, type EventScope } from "./feed.js";

type Row = Record<string, any>;
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

export function createEventStreams(db: Db, options: StreamOptions) {
  const subscribers = new Set<Subscriber>();
  const streams = new Set<PassThrough>();
  let low: number | null = null; // every id <= low has been fanned out (or skipped as a rolled-back gap)
  let gapSince: number | null = null;
  let timer: NodeJS.Timeout | null = null;
  let polling: Promise<void> | null = null;

  const matches = (scope: EventScope, row: Row) =>
    (!scope.account || scope.account === row.account) && (!scope.orderId || scope.orderId === row.order_id);

  /** Fans out rows in id order and only past contiguous ids, so a resume point never skips a late commit. */
  async function poll() {
    if (low === null) low = Number((await db("order_events").max({ max: "id" }))[0]?.max ?? 0);
    const rows: Row[] = await eventRows(db, low, {}).limit(500);
    for (const row of rows) {
      const seq = Number(row.id);
      if (seq !== low + 1 && (gapSince ??= Date.now()) > Date.now() - options.gapMs) break;
      gapSince = null;
      low = seq;
      for (const sub of subscribers) if (matches(sub.scope, row)) sub.send(toEvent(row, sub.base));
    }
  }

  function schedule() {
    timer = setTimeout(() => {
      polling = poll()
        .catch(() => {}) // the database may be restarting; the next poll catches up from `low`
        .finally(() => {
          timer ? schedule() : undefined;
        });
    }, options.pollMs);
  }

  return {
    start() {
      if (!timer) schedule();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await polling;
      for (const stream of streams) stream.end();
    },
    /** An SSE body: the events after `afterSeq` from the table, then live ones, each exactly once. */
    async open(scope: EventScope, after: number | undefined, base: string): Promise<PassThrough> {
      if (low === null) await poll();
      const afterSeq = after ?? (scope.orderId ? 0 : low!); // no resume point: an order's history, else new events
      const stream = new PassThrough();
      const queue: DispatchEvent[] = [];
      let replaying = true;
      let last = afterSeq;
      const write = (event: DispatchEvent) => {
        const seq = Number(event.id.slice(4));
        if (seq <= last) return;
        last = seq;
        stream.write(frame(event));
      };
      const sub: Subscriber = { scope, base, send: (event) => (replaying ? queue.push(event) : write(event)) };
      subscribers.add(sub);
      streams.add(stream);
      const upto = low!;
      const heartbeat = setInterval(() => stream.write(": heartbeat\n\n"), options.heartbeatMs);
      stream.on("close", () => {
        clearInterval(heartbeat);
        subscribers.delete(sub);
        streams.delete(stream);
      });
      stream.write(": stream open\n\n");
      for (const row of await eventRows(db, afterSeq, scope).where("e.id", "<=", upto)) write(toEvent(row, base));
      replaying = false;
      for (const event of queue.splice(0)) write(event);
      return stream;
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
