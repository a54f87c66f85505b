// What a stream hub reads: one sequenced event table (order_events or contractor_events), so one hub and one
// subscriber serve either feed with the same guarantees.
import type { Db } from "../../db/knex.js";

export interface SeqRow {
  seq: number | string;
}
/** An event as every surface of its feed sends it (the page item and the SSE `data:`). */
export interface FeedEvent {
  id: string;
  type: string;
}

export interface ScopedFeed {
  rows(db: Db, afterSeq: number, uptoSeq: number, limit: number): Promise<SeqRow[]>;
  /** Whether a row the poller read (any scope's) is this stream's. */
  has(row: SeqRow): boolean;
  render(row: SeqRow, base: string): FeedEvent;
  /** A stream opened without a resume point replays the scope's whole history (one order's), else starts now. */
  fromStart: boolean;
}

export interface FeedSource<Scope> {
  /** Every scope's rows after `afterSeq`, in seq order: for the hub's poller only. */
  rowsAfter(db: Db, afterSeq: number, limit: number): Promise<SeqRow[]>;
  latestSeq(db: Db): Promise<number>;
  scoped(scope: Scope): ScopedFeed;
}
