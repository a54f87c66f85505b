// The sequencer: one instance at a time (a try-lock held only by its own transaction, never by a request)
// gives pending records leaf indices, stores the new node hashes and signs a checkpoint, at most every second.
import { createHash } from "node:crypto";
import { setImmediate } from "node:timers/promises";
import type { Knex } from "knex";
import { insertJsonRows } from "../../db/json-rows.js";
import { rawQuery } from "../../db/raw.js";
import { checkpointText, type NoteSigner } from "./note.js";
import { appendLeaves, completeSubtrees, treeHashFrom, type NodeCoord } from "./tlog.js";

/** The audit log's advisory lock, held while the tree grows; the retention purge takes the same id. */
export const auditLogLockId = 724_312;
const batchLimit = 5000;
/** MTH({}) = SHA-256() — RFC 9162 §2.1.1. */
const emptyTreeHash = createHash("sha256").digest();
type HashedNode = NodeCoord & { hash: Buffer };

async function treeSize(trx: Knex.Transaction): Promise<number> {
  const [row] = await trx("audit_leaves").max({ last: "leaf_index" });
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

async function frontierOf(trx: Knex.Transaction, size: number): Promise<HashedNode[]> {
  const coords = completeSubtrees(0, size);
  if (coords.length === 0) return [];
  const rows = await trx("audit_nodes")
    .whereIn(
      ["level", "idx"],
      coords.map((c) => [c.level, c.index]),
    )
    .select("level", "idx", "hash");
  const byKey = new Map(rows.map((r) => [`${r.level}/${r.idx}`, Buffer.from(r.hash, "hex")]));
  return coords.map((c) => ({ ...c, hash: byKey.get(`${c.level}/${c.index}`)! }));
}

/** All rows in one statement with one json parameter (no per-value binding work while requests wait). */
async function insertAll(trx: Knex.Transaction, table: string, columns: string[], rows: object[]): Promise<void> {
  if (rows.length > 0) await trx.raw(insertJsonRows(table, columns), [JSON.stringify(rows)]);
}

async function pendingBatch(trx: Knex.Transaction): Promise<{ position: number; seal: string }[]> {
  return trx("audit_pending as p")
    .join("audit_records as r", "r.position", "p.position")
    .orderBy("p.position")
    .limit(batchLimit)
    .select("r.position", "r.seal");
}

const leavesPerStep = 256;

/** appendLeaves over a whole batch, a step at a time with the event loop free in between. */
async function appendInSteps(start: HashedNode[], size: number, leaves: Buffer[]) {
  let frontier = start;
  const nodes: { level: number; idx: number; hash: string }[] = [];
  for (let i = 0; i < leaves.length; i += leavesPerStep) {
    if (i > 0) await setImmediate();
    const step = appendLeaves(frontier, size + i, leaves.slice(i, i + leavesPerStep));
    frontier = step.frontier;
    for (const n of step.nodes) nodes.push({ level: n.level, idx: n.index, hash: n.hash.toString("hex") });
  }
  return { nodes, frontier };
}

/** Integrates up to one batch; returns how many records got leaf indices (0 when another instance holds the lock). */
export async function integratePending(db: Knex, signer: NoteSigner, origin: string): Promise<number> {
  return db.transaction(async (trx) => {
    const lock = await rawQuery<{ ok: boolean }>(trx, "select pg_try_advisory_xact_lock(?) as ok", [auditLogLockId]);
    if (!lock.rows[0]?.ok) return 0;
    const pending = await pendingBatch(trx);
    const size = await treeSize(trx);
    const [latest] = await trx("audit_checkpoints").max({ size: "tree_size" });
    if (pending.length === 0 && Number(latest?.size ?? -1) === size) return 0;
    // A new record's seal is its leaf hash; verification recomputes it from the content.
    const leaves = pending.map((p) => Buffer.from(p.seal.slice(5), "hex"));
    const { nodes, frontier } = await appendInSteps(await frontierOf(trx, size), size, leaves);
    const newSize = size + leaves.length;
    await insertAll(
      trx,
      "audit_leaves",
      ["leaf_index", "position"],
      pending.map((p, i) => ({ leaf_index: size + i, position: p.position })),
    );
    await insertAll(trx, "audit_nodes", ["level", "idx", "hash"], nodes);
    if (pending.length > 0)
      await trx.raw(
        "delete from audit_pending where position in (select value::bigint from json_array_elements_text(?::json))",
        [JSON.stringify(pending.map((p) => String(p.position)))],
      );
    const root = newSize === 0 ? emptyTreeHash : treeHashFrom(frontier.map((n) => n.hash));
    const note = signer.sign(checkpointText(origin, newSize, root));
    await trx("audit_checkpoints")
      .insert({ tree_size: newSize, root_hash: root.toString("hex"), note })
      .onConflict("tree_size")
      .ignore();
    return pending.length;
  });
}
