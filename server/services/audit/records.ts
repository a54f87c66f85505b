// An account's own audit records, newest first, paged by an opaque cursor over the record position.
import type { Knex } from "knex";
import type { AuditRecordRow } from "../../db/tables/audit.js";
import type { AuditType } from "./entries.js";
import { DomainError } from "../errors.js";
import type { Tenant } from "../access/principal.js";

export interface AuditRecordView {
  seal: string;
  /** Deprecated twin of log_position, kept until its sunset (see openapi.yaml). */
  chain_position: number;
  log_position: number;
  type: AuditType;
  subject: string;
  recorded_at: string;
  content: Record<string, unknown>;
}
export interface AuditRecordQuery {
  limit: number;
  cursor?: string;
  type?: AuditType;
}

function encodeCursor(position: number): string {
  return Buffer.from(`p${position}`).toString("base64url");
}

function decodeCursor(cursor: string): number {
  const match = /^p([1-9][0-9]{0,17})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match)
    throw new DomainError("validation", "validation_failed", '"cursor" is not a cursor from a previous page.', {
      errors: [{ pointer: "#/query/cursor", message: '"cursor" is not a cursor from a previous page.' }],
    });
  return Number(match[1]);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function parseContent(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : { value };
  } catch {
    return { unparseable: true }; // only a tampered row gets here; verification reports it
  }
}

function toView(row: Pick<AuditRecordRow, "seal" | "position" | "type" | "subject" | "recorded_at" | "content">) {
  return {
    seal: row.seal,
    chain_position: row.position,
    log_position: row.position,
    type: row.type,
    subject: row.subject,
    recorded_at: new Date(row.recorded_at).toISOString(),
    content: parseContent(row.content),
  } satisfies AuditRecordView;
}

/** Records owned by the tenant: its account's records of one environment. */
export async function listAuditRecords(
  db: Knex,
  tenant: Tenant,
  query: AuditRecordQuery,
): Promise<{ items: AuditRecordView[]; next_cursor: string | null }> {
  const before = query.cursor === undefined ? null : decodeCursor(query.cursor);
  const select = db("audit_records").where(tenant);
  if (query.type) select.where({ type: query.type });
  if (before !== null) select.where("position", "<", before);
  const rows = await select
    .orderBy("position", "desc")
    .limit(query.limit + 1)
    .select("seal", "position", "type", "subject", "recorded_at", "content");
  const page = rows.slice(0, query.limit).map(toView);
  return { items: page, next_cursor: rows.length > query.limit ? encodeCursor(page.at(-1)!.log_position) : null };
}
