// Seal verification: recompute a record's hash from its stored fields and check its link to the record before it.
import type { Knex } from "knex";
import { anchorHashBefore, recordHash, type AuditType } from "./chain.js";
import { DomainError } from "../errors.js";

export const sealPattern = /^seal_[0-9a-f]{64}$/;

export type SealStatus = "valid" | "content_mismatch" | "chain_broken";
export interface SealVerification {
  seal: string;
  valid: boolean;
  status: SealStatus;
  chain_position: number;
  record_type: AuditType;
  recorded_at: string;
  checked_at: string;
}

interface StoredRecord {
  position: number | string;
  seal: string;
  prev_hash: string;
  type: string;
  account: string | null;
  subject: string;
  content: string;
  recorded_at: Date | string;
}

/** The hash the record at `position` must link to: the previous remaining record's, else the purge anchor or genesis. */
async function expectedPrevHash(db: Knex, position: number): Promise<string> {
  const previous = await db("audit_records").where("position", "<", position).orderBy("position", "desc").first("seal");
  return previous ? (previous.seal as string).slice(5) : anchorHashBefore(db, position);
}

function statusOf(row: StoredRecord, recordedAt: string, expectedPrev: string): SealStatus {
  const fields = {
    type: row.type,
    account: row.account,
    subject: row.subject,
    content: row.content,
    recorded_at: recordedAt,
  };
  if (`seal_${recordHash(row.prev_hash, fields)}` !== row.seal) return "content_mismatch";
  return row.prev_hash === expectedPrev ? "valid" : "chain_broken";
}

/** 400 for a malformed seal, 404 for an unknown one; otherwise the verification result (never the content). */
export async function verifySeal(db: Knex, seal: string, now = new Date()): Promise<SealVerification> {
  if (!sealPattern.test(seal))
    throw new DomainError(
      "bad_request",
      "malformed_seal",
      "A seal is 'seal_' followed by 64 lowercase hexadecimal digits.",
    );
  const row = (await db("audit_records").where({ seal }).first()) as StoredRecord | undefined;
  if (!row) throw new DomainError("not_found", "seal_not_found", "No audit record carries this seal.");
  const position = Number(row.position);
  const recordedAt = new Date(row.recorded_at).toISOString();
  const status = statusOf(row, recordedAt, await expectedPrevHash(db, position));
  return {
    seal,
    valid: status === "valid",
    status,
    chain_position: position,
    record_type: row.type as AuditType,
    recorded_at: recordedAt,
    checked_at: now.toISOString(),
  };
}
