// An account's own audit records, newest first, paged by an opaque cursor over the record position.
import type { Knex } from "knex";
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

function parseContent(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { unparseable: true }; // only a tampered row gets here; verification reports it
  }
}

function toView(row: Record<string, unknown>): AuditRecordView {
  return {
    seal: row.seal as string,
    chain_position: Number(row.position),
    log_position: Number(row.position),
    type: row.type as AuditType,
    subject: row.subject as string,
    recorded_at: new Date(row.recorded_at as string).toISOString(),
    content: parseContent(row.content as string),
  };
}

/** Records owned by the tenant: its account's records of one environment. */
export async function listAuditRecords(
  db: Knex,
  tenant: Tenant,
  query: AuditRecordQuery,
): Promise<{ items: AuditRecordView[]; next_cursor: string | null }> {
  const before = query.cursor === undefined ? null : decodeCursor(query.cursor);
  const rows = await db("audit_records")
    .where(tenant)
    .modify((q) => {
      if (query.type) q.where({ type: query.type });
      if (before !== null) q.where("position", "<", before);
    })
    .orderBy("position", "desc")
    .limit(query.limit + 1)
    .select("seal", "position", "type", "subject", "recorded_at", "content");
  const page = rows.slice(0, query.limit).map(toView);
  return { items: page, next_cursor: rows.length > query.limit ? encodeCursor(page.at(-1)!.log_position) : null };
}
