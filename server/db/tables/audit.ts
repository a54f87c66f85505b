// Rows of the audit log: records (sealed, append-only), the RFC 9162 tree over them (leaves, nodes, signed
// checkpoints), the records waiting for a leaf, the signing key, and the boundaries retention purged up to.
// bigint columns arrive as numbers (server/db/knex.ts parses int8 so; PGlite does already).
import type { Schemas } from "../../types/contract.js";
import type { InsertOf, TableOf } from "./writes.js";

export interface AuditRecordRow {
  position: number;
  seal: string;
  type: Schemas["AuditRecordType"];
  account: string | null;
  environment: Schemas["ApiKeyEnvironment"] | null;
  subject: string;
  /** The record's content as RFC 8785 canonical JSON text (text, so the sealed bytes are kept as they were). */
  content: string;
  recorded_at: Date;
  /** Records sealed before the Merkle tree: the previous record's hash in that chain; null since. */
  pre_tree_previous_hash: string | null;
}
/** Timestamps are written as ISO text: the seal is computed over exactly that text. */
type AuditRecordInsert = InsertOf<
  Omit<AuditRecordRow, "recorded_at"> & { recorded_at: Date | string },
  "position" | "pre_tree_previous_hash" | "environment"
>;

export interface AuditLeafRow {
  leaf_index: number;
  position: number;
}

export interface AuditNodeRow {
  level: number;
  idx: number;
  /** Hex SHA-256. */
  hash: string;
}

export interface AuditCheckpointRow {
  tree_size: number;
  root_hash: string;
  /** The signed note (C2SP signed-note format). */
  note: string;
  created_at: Date;
}

export interface AuditPendingRow {
  position: number;
}

export interface AuditSigningKeyRow {
  id: number;
  private_key: string;
}

export interface AuditPurgeBoundaryRow {
  id: number;
  purged_through: number;
  boundary_hash: string;
  purged_count: number;
  cutoff: Date;
  created_at: Date;
}

declare module "knex/types/tables.js" {
  interface Tables {
    audit_records: TableOf<AuditRecordRow, AuditRecordInsert>;
    audit_leaves: TableOf<AuditLeafRow>;
    audit_nodes: TableOf<AuditNodeRow>;
    audit_checkpoints: TableOf<AuditCheckpointRow, InsertOf<AuditCheckpointRow, "created_at">>;
    audit_pending: TableOf<AuditPendingRow>;
    audit_signing_keys: TableOf<AuditSigningKeyRow>;
    audit_purge_boundaries: TableOf<AuditPurgeBoundaryRow, InsertOf<AuditPurgeBoundaryRow, "id" | "created_at">>;
  }
}
