// Audit trail: append decisions to a hash chain; a record's seal is `seal_` + its hash.
import type { Knex } from "knex";
import { canonicalJson, sha256Hex } from "../shared/ids.js";

export const auditTypes = ["quote", "order", "match", "order_status", "key_issued", "key_revoked"] as const;
export type AuditType = (typeof auditTypes)[number];
export interface AuditEntry {
  type: AuditType;
  /** Owning account, or null for operator-level records. */
  account: string | null;
  /** What the decision is about (order id, key id, quote id). */
  subject: string;
  content: Record<string, unknown>;
}

export const genesisHash = "0".repeat(64);
// Any constant works; it serialises appends so each record links to the one before it.
const chainLockId = 724_311;

/** The hash a record must carry: previous hash + canonical record fields. */
export function recordHash(
  prevHash: string,
  fields: { type: string; account: string | null; subject: string; content: string; recorded_at: string },
): string {
  return sha256Hex(`${prevHash}\n${canonicalJson({ ...fields })}`);
}

/** The hash a record at `position` links to when no earlier record remains: the newest purge anchor, or genesis. */
export async function anchorHashBefore(db: Knex | Knex.Transaction, position: number): Promise<string> {
  const anchor = await db("audit_anchor")
    .where("purged_through", "<", position)
    .orderBy("purged_through", "desc")
    .first("boundary_hash");
  return (anchor?.boundary_hash as string | undefined) ?? genesisHash;
}

/** Appends one record inside `trx` (or its own transaction) and returns its seal. */
export async function appendAudit(db: Knex | Knex.Transaction, entry: AuditEntry): Promise<string> {
  const run = async (trx: Knex.Transaction) => {
    await trx.raw("select pg_advisory_xact_lock(?)", [chainLockId]);
    const last = await trx("audit_records").orderBy("position", "desc").first("seal");
    const prevHash = last ? (last.seal as string).slice(5) : await anchorHashBefore(trx, Number.MAX_SAFE_INTEGER);
    const fields = {
      type: entry.type,
      account: entry.account,
      subject: entry.subject,
      content: canonicalJson(entry.content),
      recorded_at: new Date().toISOString(),
    };
    const seal = `seal_${recordHash(prevHash, fields)}`;
    await trx("audit_records").insert({ ...fields, seal, prev_hash: prevHash });
    return seal;
  };
  return "isTransaction" in db && db.isTransaction ? run(db as Knex.Transaction) : (db as Knex).transaction(run);
}
