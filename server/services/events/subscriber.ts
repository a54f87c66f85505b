// One open SSE stream: its frames, the paged replay from the table (waiting for the socket between pages) and
// the hand-over to live events, each event written once and in feed order.
import type { PassThrough } from "node:stream";
import type { Db } from "../../db/knex.js";
import { tenantRows, toEvent, type DispatchEvent, type EventRow, type EventScope } from "./feed.js";

export interface Subscriber {
  scope: EventScope;
  base: string;
  /** The credential the stream was opened with (streams per key are capped; a revoked key's streams end). */
  keyId: string;
  stream: PassThrough;
  openedAt: number;
  lastWriteAt: number;
  /** False while replaying: live events are left to the replay, which reads them from the table. */
  live: boolean;
  /** Every event of the scope with seq <= through has been written. */
  through: number;
  /** Releases the subscriber's place in the hub once (on close, end or failure). */
  release(): void;
}

/** Rows per replay query: a client that never reads costs one page plus the stream's buffer, not the backlog. */
export const replayPageRows = 100;

const frame = (event: DispatchEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
const seqOfEvent = (event: DispatchEvent) => Number(event.id.slice(4));
/** Ended (by the hub) or destroyed (the client left): nothing more may be written. */
export const isGone = (stream: PassThrough) => stream.destroyed || stream.writableEnded;

export function writeComment(sub: Subscriber, text: string): void {
  if (isGone(sub.stream)) return;
  sub.lastWriteAt = Date.now();
  sub.stream.write(`: ${text}\n\n`);
}

function writeEvent(sub: Subscriber, event: DispatchEvent): void {
  const seq = seqOfEvent(event);
  if (seq <= sub.through || isGone(sub.stream)) return; // replayed already, or closed
  sub.through = seq;
  sub.lastWriteAt = Date.now();
  sub.stream.write(frame(event));
}

/** A live event for this stream's tenant (and order), once the replay has handed over. */
export function offerLive(sub: Subscriber, row: EventRow): void {
  const { scope } = sub;
  if (!sub.live || row.account !== scope.account || row.environment !== scope.environment) return;
  if (scope.orderId && row.order_id !== scope.orderId) return;
  writeEvent(sub, toEvent(row, sub.base));
}

/** Ends the stream with a last comment saying why, and frees its place at once. */
export function endWith(sub: Subscriber, why: string): void {
  sub.release();
  if (isGone(sub.stream)) return;
  writeComment(sub, why);
  sub.stream.end();
}

/** Resolves when the stream wants more (or is gone): nothing is read from the table for a client that lags. */
function drained(stream: PassThrough): Promise<void> {
  if (!stream.writableNeedDrain || isGone(stream)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}

/**
 * Replays the table in pages up to the hub's mark (`low()`, every seq the hub has fanned out), then turns live
 * in the same synchronous step that sees the mark unchanged: events after it come from the hub, those before
 * from the table, and writeEvent's `through` drops the few both deliver.
 */
export async function replay(db: Db, sub: Subscriber, low: () => number): Promise<void> {
  let upto = low();
  for (;;) {
    const rows: EventRow[] = await tenantRows(db, sub.through, sub.scope, upto).limit(replayPageRows);
    if (isGone(sub.stream)) return;
    for (const row of rows) writeEvent(sub, toEvent(row, sub.base));
    await drained(sub.stream);
    if (isGone(sub.stream)) return;
    if (rows.length === replayPageRows) continue; // more before `upto`
    sub.through = Math.max(sub.through, upto);
    if (low() === upto) {
      sub.live = true;
      return;
    }
    upto = low();
  }
}
