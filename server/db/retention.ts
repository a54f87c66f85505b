// Audit retention: records older than 7 years are purged through the database's audit_purge_expired(), the only
// path past the append-only triggers; it records the purged boundary (audit_purge_boundaries) and keeps records the
// tree has not taken yet.
import type { Knex } from "knex";
import { rawQuery } from "./raw.js";

/** The one retention figure; the migration's audit_purge_expired() holds the same interval (migrations are frozen). */
export const auditRetentionYears = 7;

/** Purges audit records recorded before `now` minus auditRetentionYears; returns how many were removed. */
export async function purgeExpiredAudit(db: Knex, now: Date = new Date()): Promise<number> {
  const result = await rawQuery<{ purged: number }>(db, "select audit_purge_expired(?::timestamptz) as purged", [
    now.toISOString(),
  ]);
  return result.rows[0]?.purged ?? 0;
}
