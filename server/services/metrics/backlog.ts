// Work waiting in the database: the webhook outbox and the audit sequencer's queue. Read at scrape time, each in
// one statement that looks at no more than `backlogCap` rows, so a scrape costs the same however far behind we are.
import type { Db } from "../../db/knex.js";
import { rawQuery } from "../../db/raw.js";

/** Depths saturate here: past it the number matters less than that it is large (and its age says how stuck). */
export const backlogCap = 10_000;

export interface OutboxBacklog {
  /** Undelivered messages (pending, retries included), at most backlogCap. */
  pending: number;
  /** Seconds since the oldest undelivered message was written (0: none waiting). */
  oldestAgeSeconds: number;
}

export interface AuditBacklog {
  /** Records appended but not yet given a leaf index by the sequencer, at most backlogCap. */
  pending: number;
  /** Seconds since the newest signed checkpoint (null: none yet). It grows while nothing is appended. */
  checkpointAgeSeconds: number | null;
}

/** count(*) is int8 and extract() numeric: both arrive as numbers (server/db/knex.ts), or null over no rows. */
interface Row {
  pending: number;
  age: number | null;
}

/** The outbox's ids grow with time, so the first rows by id among the pending are the oldest ones. */
export async function readOutboxBacklog(db: Db): Promise<OutboxBacklog> {
  const result = await rawQuery<Row>(
    db,
    `select count(*) as pending, extract(epoch from now() - min(created_at)) as age
       from (select created_at from webhook_outbox where status = 'pending' order by id limit ?) waiting`,
    [backlogCap],
  );
  const [row] = result.rows;
  return { pending: row?.pending ?? 0, oldestAgeSeconds: Math.max(0, row?.age ?? 0) };
}

export async function readAuditBacklog(db: Db): Promise<AuditBacklog> {
  const result = await rawQuery<Row>(
    db,
    `select (select count(*) from (select 1 from audit_pending limit ?) waiting) as pending,
            (select extract(epoch from now() - created_at) from audit_checkpoints
               order by tree_size desc limit 1) as age`,
    [backlogCap],
  );
  const [row] = result.rows;
  const age = row?.age ?? null;
  return { pending: row?.pending ?? 0, checkpointAgeSeconds: age === null ? null : Math.max(0, age) };
}
