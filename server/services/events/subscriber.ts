// One open SSE stream: its frames, the paged replay from the table (waiting for the socket between pages) and
// the hand-over to live events, each event written once and in feed order, whichever feed (feed-source.ts) it reads.
import type { PassThrough } from "node:stream";
import type { Db } from "../../db/knex.js";
import type { FeedEvent, ScopedFeed, SeqRow } from "./feed-source.js";

export interface Subscriber {
  /** The stream's part of its feed: its scope's rows and how they render. */
  feed: ScopedFeed;
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

const frame = (event: FeedEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
/** Ended (by the hub) or destroyed (the client left): nothing more may be written. */
export const isGone = (stream: PassThrough) => stream.destroyed || stream.writableEnded;

export function writeComment(sub: Subscriber, text: string): void {
  if (isGone(sub.stream)) return;
  sub.lastWriteAt = Date.now();
  sub.stream.write(`: ${text}\n\n`);
}

function writeEvent(sub: Subscriber, row: SeqRow): void {
  const seq = Number(row.seq);
  if (seq <= sub.through || isGone(sub.stream)) return; // replayed already, or closed
  sub.through = seq;
  sub.lastWriteAt = Date.now();
  sub.stream.write(frame(sub.feed.render(row, sub.base)));
}

export function offerLive(sub: Subscriber, row: SeqRow): void {
  if (!sub.live || !sub.feed.has(row)) return;
  writeEvent(sub, row);
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

/** Replays the table up to the hub's mark (`low()`), then turns live in the step that sees it unchanged. */
export async function replay(db: Db, sub: Subscriber, low: () => number): Promise<void> {
  let upto = low();
  for (;;) {
    const rows = await sub.feed.rows(db, sub.through, upto, replayPageRows);
    if (isGone(sub.stream)) return;
    for (const row of rows) writeEvent(sub, row);
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
