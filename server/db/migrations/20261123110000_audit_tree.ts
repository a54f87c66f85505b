// Audit log as an RFC 9162 Merkle tree: leaves (record position -> leaf index), stored node hashes, signed
// checkpoints, a pending queue filled by trigger, and the embedded signing key. Today's chain becomes the first
// leaves in position order. Tree tables are append-only like audit_records; the purge removes record content only.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { Knex } from "knex";

const appendOnly = ["audit_leaves", "audit_nodes", "audit_checkpoints", "audit_signing_keys"];

const treeGuard = `
create or replace function audit_tree_guard() returns trigger language plpgsql as $$
begin
  raise exception '% is append-only: % refused', tg_table_name, tg_op using errcode = '42501';
end $$`;

const pendingTrigger = `
create or replace function audit_records_enqueue() returns trigger language plpgsql as $$
begin
  insert into audit_pending (position) values (new.position);
  return new;
end $$`;

// Caches (API keys, contractor pool) in every instance drop their entries when these tables change.
const notifyTrigger = `
create or replace function dispatch_cache_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('dispatch_cache', tg_table_name);
  return null;
end $$`;

async function createTables(db: Knex): Promise<void> {
  await db.schema.createTable("audit_leaves", (t) => {
    t.bigInteger("leaf_index").primary();
    t.bigInteger("position").notNullable().unique();
  });
  await db.schema.createTable("audit_nodes", (t) => {
    t.smallint("level").notNullable();
    t.bigInteger("idx").notNullable();
    t.string("hash", 64).notNullable();
    t.primary(["level", "idx"]);
  });
  await db.schema.createTable("audit_checkpoints", (t) => {
    t.bigInteger("tree_size").primary();
    t.string("root_hash", 64).notNullable();
    t.text("note").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable("audit_pending", (t) => t.bigInteger("position").primary());
  await db.schema.createTable("audit_signing_keys", (t) => {
    t.smallint("id").primary();
    t.text("private_key").notNullable();
  });
}

// The hashing below is this migration's own copy of the services' (audit/entries.ts leaf hash, audit/tlog.ts
// appendLeaves), frozen so that a later change there cannot change what upgrading an old database computes.

/** RFC 9162: a leaf is SHA-256(0x00 ‖ data), an interior node SHA-256(0x01 ‖ left ‖ right). */
const sha256 = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
const leafHash = (text: string) => sha256(Buffer.from([0]), Buffer.from(text, "utf8"));
const nodeHash = (left: Buffer, right: Buffer) => sha256(Buffer.from([1]), left, right);

interface StoredRow {
  type: string;
  account: string | null;
  subject: string;
  content: string;
  recorded_at: string | Date;
}

/** SHA-256(0x00 ‖ JCS({type, account, subject, content, recorded_at})) of a record as stored. */
function leafHashOfRow(row: StoredRow): Buffer {
  let content: unknown = row.content;
  try {
    content = JSON.parse(row.content);
  } catch {
    // a tampered row: hashed as text, so its seal no longer matches
  }
  const fields = {
    type: row.type,
    account: row.account,
    subject: row.subject,
    content,
    recorded_at: new Date(row.recorded_at).toISOString(),
  };
  return leafHash(canonicalize(fields)!);
}

interface TreeNode {
  level: number;
  index: number;
  hash: Buffer;
}

/** Every stored node of the tree over `leaves` (leaf 0 first): each leaf, and each complete subtree as it closes. */
function treeNodes(leaves: Buffer[]): TreeNode[] {
  const edge: TreeNode[] = [];
  const nodes: TreeNode[] = [];
  leaves.forEach((hash, i) => {
    let node: TreeNode = { level: 0, index: i, hash };
    nodes.push(node);
    while (edge.length > 0 && edge.at(-1)!.level === node.level) {
      const left = edge.pop()!;
      node = { level: node.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
      nodes.push(node);
    }
    edge.push(node);
  });
  return nodes;
}

/** Today's chain, in position order, becomes leaves 0..n-1 (their old seals stay valid look-up keys). */
async function integrateChain(db: Knex): Promise<void> {
  const rows = await db("audit_records")
    .orderBy("position")
    .select("position", "type", "account", "subject", "content", "recorded_at");
  const nodes = treeNodes(rows.map((r) => leafHashOfRow(r)));
  for (let i = 0; i < rows.length; i += 1000)
    await db("audit_leaves").insert(
      rows.slice(i, i + 1000).map((r, j) => ({ leaf_index: i + j, position: r.position })),
    );
  for (let i = 0; i < nodes.length; i += 1000)
    await db("audit_nodes").insert(
      nodes.slice(i, i + 1000).map((n) => ({ level: n.level, idx: n.index, hash: n.hash.toString("hex") })),
    );
}

export async function up(db: Knex): Promise<void> {
  await createTables(db);
  await db.raw("alter table audit_records alter column prev_hash drop not null");
  await integrateChain(db);
  await db.raw(pendingTrigger);
  await db.raw(
    "create trigger audit_records_enqueue after insert on audit_records for each row execute function audit_records_enqueue()",
  );
  await db.raw(notifyTrigger);
  await db.raw(treeGuard);
  for (const table of ["api_keys", "contractors"])
    await db.raw(
      `create trigger ${table}_cache_notify after insert or update or delete on ${table} for each statement execute function dispatch_cache_notify()`,
    );
  for (const table of appendOnly) {
    await db.raw(
      `create trigger ${table}_no_change before update or delete on ${table} for each row execute function audit_tree_guard()`,
    );
    await db.raw(
      `create trigger ${table}_no_truncate before truncate on ${table} for each statement execute function audit_tree_guard()`,
    );
    await db.raw(`revoke update, delete, truncate on ${table} from public`);
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of ["api_keys", "contractors"])
    await db.raw(`drop trigger if exists ${table}_cache_notify on ${table}`);
  await db.raw("drop trigger if exists audit_records_enqueue on audit_records");
  for (const table of [...appendOnly, "audit_pending"]) await db.schema.dropTableIfExists(table);
  await db.raw("drop function if exists audit_records_enqueue()");
  await db.raw("drop function if exists audit_tree_guard()");
  await db.raw("drop function if exists dispatch_cache_notify()");
}
