// An account's own audit records, newest first, paged by an opaque cursor over the record position.
import type { Knex } from "knex";
import type { AuditRecordRow } from "../../db/tables/audit.js";
import type { AuditType } from "./entries.js";
import { isRecord } from "../shared/is-record.js";
import { newestByPosition, pageByPosition } from "../shared/keyset.js";
import { parseStoredJson } from "../shared/parse-json.js";
import type { Tenant } from "../shared/tenant.js";

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

function parseContent(text: string): Record<string, unknown> {
  const parsed = parseStoredJson(text);
  if (!parsed) return { unparseable: true }; // only a tampered row gets here; verification reports it
  return isRecord(parsed.value) ? parsed.value : { value: parsed.value };
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
  const select = db("audit_records").where(tenant);
  if (query.type) select.where({ type: query.type });
  const rows = await newestByPosition(select, query, "position").select(
    "seal",
    "position",
    "type",
    "subject",
    "recorded_at",
    "content",
  );
  const { page, next_cursor } = pageByPosition(rows, query.limit, (row) => row.position);
  return { items: page.map(toView), next_cursor };
}
