// Seal verification and proofs from stored node hashes: O(log n) node reads, never a rescan, never record content.
import type { Knex } from "knex";
import type { AuditRecordRow } from "../../db/tables/audit.js";
import { leafHashOfRow, type AuditType } from "./entries.js";
import { DomainError } from "../errors.js";
import { accessorFrom, consistencyProof, inclusionProof, nodesNeeded, type SubtreeHash } from "./tlog.js";

export const sealPattern = /^seal_[0-9a-f]{64}$/;

export type SealStatus = "valid" | "pending" | "content_mismatch";
export interface SealVerification {
  seal: string;
  valid: boolean;
  status: SealStatus;
  /** Deprecated twin of log_position, kept until its sunset (see openapi.yaml). */
  chain_position: number;
  log_position: number;
  record_type: AuditType;
  recorded_at: string;
  checked_at: string;
  leaf_index?: number;
  leaf_hash?: string;
  inclusion_proof?: { tree_size: number; hashes: string[] };
  checkpoint?: string;
}
export interface Checkpoint {
  tree_size: number;
  note: string;
}
/** A record with its leaf index and stored leaf hash (both null until the sequencer has integrated it). */
type SealedRow = AuditRecordRow & { leaf_index: number | null; leaf_hash: string | null };

export async function latestCheckpoint(db: Knex): Promise<Checkpoint | null> {
  const row = await db("audit_checkpoints").orderBy("tree_size", "desc").first("tree_size", "note");
  return row ? { tree_size: row.tree_size, note: row.note } : null;
}

/** Runs a proof twice: once to learn which stored nodes it reads, then over those nodes fetched in one query. */
async function withNodes(db: Knex, proof: (sub: SubtreeHash) => Buffer[]): Promise<string[]> {
  const coords = nodesNeeded(proof);
  const rows = coords.length
    ? await db("audit_nodes")
        .whereIn(
          ["level", "idx"],
          coords.map((c) => [c.level, c.index]),
        )
        .select("level", "idx", "hash")
    : [];
  const nodes = new Map(rows.map((r) => [`${r.level}/${r.idx}`, Buffer.from(r.hash, "hex")]));
  return proof(accessorFrom(nodes)).map((h) => h.toString("base64"));
}

function malformed(): DomainError {
  return new DomainError(
    "bad_request",
    "malformed_seal",
    "A seal is 'seal_' followed by 64 lowercase hexadecimal digits.",
  );
}

/** 400 malformed, 404 unknown; `pending` until integrated, then `valid` with its inclusion proof, or `content_mismatch`. */
export async function verifySeal(db: Knex, seal: string, now = new Date()): Promise<SealVerification> {
  if (!sealPattern.test(seal)) throw malformed();
  const row = await db("audit_records as r")
    .leftJoin("audit_leaves as l", "l.position", "r.position")
    .leftJoin("audit_nodes as n", (j) => j.on("n.idx", "l.leaf_index").andOn("n.level", db.raw("0")))
    .where("r.seal", seal)
    .first<SealedRow | undefined>("r.*", "l.leaf_index", "n.hash as leaf_hash");
  if (!row) throw new DomainError("not_found", "seal_not_found", "No audit record carries this seal.");
  const recomputed = leafHashOfRow(row).toString("hex");
  const integrated = row.leaf_index !== null;
  const expected = integrated ? row.leaf_hash : seal.slice(5);
  const status: SealStatus = recomputed !== expected ? "content_mismatch" : integrated ? "valid" : "pending";
  const base = {
    seal,
    valid: status === "valid",
    status,
    chain_position: row.position,
    log_position: row.position,
    record_type: row.type,
    recorded_at: new Date(row.recorded_at).toISOString(),
    checked_at: now.toISOString(),
  };
  if (status !== "valid" || row.leaf_index === null) return base;
  const leafIndex = row.leaf_index;
  const checkpoint = (await latestCheckpoint(db))!;
  const hashes = await withNodes(db, (sub) => inclusionProof(leafIndex, 0, checkpoint.tree_size, sub));
  return {
    ...base,
    leaf_index: leafIndex,
    leaf_hash: recomputed,
    inclusion_proof: { tree_size: checkpoint.tree_size, hashes },
    checkpoint: checkpoint.note,
  };
}

/** RFC 9162 consistency proof between two tree sizes the log has reached (0 < first <= second <= latest). */
export async function consistency(db: Knex, first: number, second: number) {
  const latest = await latestCheckpoint(db);
  if (first < 1 || first > second || !latest || second > latest.tree_size)
    throw new DomainError(
      "bad_request",
      "invalid_tree_sizes",
      `Tree sizes must satisfy 0 < first <= second <= ${latest?.tree_size ?? 0} (the latest checkpoint).`,
    );
  const hashes = await withNodes(db, (sub) => consistencyProof(first, second, sub));
  return { first, second, hashes };
}
