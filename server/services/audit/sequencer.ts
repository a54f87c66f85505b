// The sequencer: one instance at a time (a try-lock held only by its own transaction, never by a request)
// gives pending records leaf indices, stores the new node hashes and signs a checkpoint, at most every second.
import { createHash } from "node:crypto";
import type { Knex } from "knex";
import { checkpointText, type NoteSigner } from "./note.js";
import { appendLeaves, completeSubtrees, treeHashFrom, type NodeCoord } from "./tlog.js";

const sequencerLockId = 724_312;
const batchLimit = 5000;
/** MTH({}) = SHA-256() — RFC 9162 §2.1.1. */
const emptyTreeHash = createHash("sha256").digest();
type HashedNode = NodeCoord & { hash: Buffer };

async function treeSize(trx: Knex.Transaction): Promise<number> {
  const row = (await trx("audit_leaves").max("leaf_index as last").first()) as { last: number | string | null };
  return row.last === null ? 0 : Number(row.last) + 1;
}

async function frontierOf(trx: Knex.Transaction, size: number): Promise<HashedNode[]> {
  const coords = completeSubtrees(0, size);
  if (coords.length === 0) return [];
  const rows = await trx("audit_nodes")
    .whereIn(
      ["level", "idx"],
      coords.map((c) => [c.level, c.index]),
    )
    .select<{ level: number; idx: number | string; hash: string }[]>("level", "idx", "hash");
  const byKey = new Map(rows.map((r) => [`${r.level}/${Number(r.idx)}`, Buffer.from(r.hash, "hex")]));
  return coords.map((c) => ({ ...c, hash: byKey.get(`${c.level}/${c.index}`)! }));
}

async function insertChunks(trx: Knex.Transaction, table: string, rows: object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await trx(table).insert(rows.slice(i, i + 1000));
}

async function pendingBatch(trx: Knex.Transaction): Promise<{ position: number | string; seal: string }[]> {
  return trx("audit_pending as p")
    .join("audit_records as r", "r.position", "p.position")
    .orderBy("p.position")
    .limit(batchLimit)
    .select("r.position", "r.seal");
}

/** Integrates up to one batch; returns how many records got leaf indices (0 when another instance holds the lock). */
export async function integratePending(db: Knex, signer: NoteSigner, origin: string): Promise<number> {
  return db.transaction(async (trx) => {
    const lock = await trx.raw("select pg_try_advisory_xact_lock(?) as ok", [sequencerLockId]);
    if (!lock.rows[0].ok) return 0;
    const pending = await pendingBatch(trx);
    const size = await treeSize(trx);
    const latest = await trx("audit_checkpoints").max("tree_size as size").first();
    if (pending.length === 0 && Number(latest?.size ?? -1) === size) return 0;
    // A new record's seal is its leaf hash; verification recomputes it from the content.
    const leaves = pending.map((p) => Buffer.from(p.seal.slice(5), "hex"));
    const { nodes, frontier } = appendLeaves(await frontierOf(trx, size), size, leaves);
    const newSize = size + leaves.length;
    await insertChunks(
      trx,
      "audit_leaves",
      pending.map((p, i) => ({ leaf_index: size + i, position: p.position })),
    );
    await insertChunks(
      trx,
      "audit_nodes",
      nodes.map((n) => ({ level: n.level, idx: n.index, hash: n.hash.toString("hex") })),
    );
    if (pending.length > 0)
      await trx("audit_pending")
        .whereIn(
          "position",
          pending.map((p) => p.position),
        )
        .delete();
    const root = newSize === 0 ? emptyTreeHash : treeHashFrom(frontier.map((n) => n.hash));
    const note = signer.sign(checkpointText(origin, newSize, root));
    await trx("audit_checkpoints")
      .insert({ tree_size: newSize, root_hash: root.toString("hex"), note })
      .onConflict("tree_size")
      .ignore();
    return pending.length;
  });
}

/** Runs integratePending every `intervalMs` until stopped; errors are logged and retried on the next tick. */
export function startSequencer(run: () => Promise<number>, intervalMs: number, onError: (error: unknown) => void) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = run()
      .catch(onError)
      .finally(() => {
        if (timer) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
