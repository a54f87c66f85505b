// Audit log appends: a record is one INSERT (no lock); its seal is `seal_` + its RFC 9162 leaf hash, known at once.
// The sequencer (sequencer.ts) later gives it a leaf index in the Merkle tree.
import canonicalize from "canonicalize";
import type { Knex } from "knex";
import { leafHash } from "./tlog.js";
import type { Environment, Tenant } from "../shared/tenant.js";
import { parseStoredJson } from "../shared/parse-json.js";
import type { Schemas } from "../../types/contract.js";

export const auditTypes = [
  "quote",
  "order",
  "match",
  "order_status",
  "key_issued",
  "key_revoked",
  "sandbox_reset",
  "escalation",
  "reschedule",
  "price_revision",
] as const satisfies readonly AuditType[];
export type AuditType = Schemas["AuditRecordType"];
export interface AuditEntry {
  type: AuditType;
  /** Owning account and environment, or null for records without one (an OAuth client's quote). */
  tenant: Tenant | null;
  /** What the decision is about (order id, key id, quote id). */
  subject: string;
  content: Record<string, unknown>;
}
/** A record as stored: content is its RFC 8785 canonical JSON text. */
export interface AuditRow {
  type: AuditType;
  account: string | null;
  /** Which world the record belongs to, for listing; not sealed (the leaf format predates environments). */
  environment: Environment | null;
  subject: string;
  content: string;
  recorded_at: string;
  seal: string;
}

// Only a tampered row fails to parse; hashed as its text, its leaf hash then no longer matches.
function parseStored(content: string): unknown {
  const parsed = parseStoredJson(content);
  return parsed ? parsed.value : content;
}

/** SHA-256(0x00 ‖ JCS({type, account, subject, content, recorded_at})) of a stored row. */
export function leafHashOfRow(
  row: Omit<AuditRow, "seal" | "environment" | "recorded_at"> & { recorded_at: string | Date },
): Buffer {
  const fields = {
    type: row.type,
    account: row.account,
    subject: row.subject,
    content: parseStored(row.content),
    recorded_at: new Date(row.recorded_at).toISOString(),
  };
  return leafHash(canonicalize(fields)!);
}

const canonicalText = (value: string | null) => canonicalize(value)!;

/** leafHashOfRow's RFC 8785 text, built from already canonical content, so fresh records are not parsed back. */
function recordText(row: Omit<AuditRow, "seal" | "environment">): string {
  return `{"account":${canonicalText(row.account)},"content":${row.content},"recorded_at":${canonicalText(row.recorded_at)},"subject":${canonicalText(row.subject)},"type":${canonicalText(row.type)}}`;
}

/** The columns an AuditRow fills (batch writers insert exactly these). */
export const auditRowColumns = [
  "type",
  "account",
  "environment",
  "subject",
  "content",
  "recorded_at",
  "seal",
] as const satisfies readonly (keyof AuditRow)[];

/** The row to insert for an entry, with its seal computed up front (callers may batch rows into one INSERT). */
export function auditRow(entry: AuditEntry, recordedAt = new Date()): AuditRow {
  const base = {
    type: entry.type,
    account: entry.tenant?.account ?? null,
    subject: entry.subject,
    content: canonicalize(entry.content)!,
    recorded_at: recordedAt.toISOString(),
  };
  const seal = `seal_${leafHash(recordText(base)).toString("hex")}`;
  return { ...base, environment: entry.tenant?.environment ?? null, seal };
}

/** Appends records in one INSERT inside the caller's transaction (or as one autocommit statement); returns seals. */
export async function appendAuditRows(db: Knex | Knex.Transaction, rows: AuditRow[]): Promise<string[]> {
  await db("audit_records").insert(rows);
  return rows.map((r) => r.seal);
}

export async function appendAudit(db: Knex | Knex.Transaction, entry: AuditEntry): Promise<string> {
  const [seal] = await appendAuditRows(db, [auditRow(entry)]);
  return seal;
}
