// The feed's order: the migration gives existing events seq = id (published ids stay valid) and their tenant;
// the sequencer numbers only committed rows, after the largest seq ever given (deleted rows' too), in id order,
// whatever holes ids have.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate } from "../../server/db/migrate.js";
import { feedHead, sequencePending } from "../../server/services/events/sequencer.js";
import { migrateThrough, storedOrder } from "../helpers/migrations.js";
import { databases } from "../helpers/server.js";

const lastBefore = "20261125100000_tenancy";

const order = (id: string, account: string, environment: string) =>
  storedOrder(id, { account, environment, key_id: "key_x" });

/** The orders' tenants, which events are written with since the migration that made them required. */
const tenants = {
  ord_a: { account: "acme", environment: "test" },
  ord_b: { account: "bolt", environment: "live" },
} as const;
type OrderId = keyof typeof tenants;

/** What an event shows of its order, given with every row since events were written complete. */
const shown = { previous_status: null, reference_id: null, contractor_id: null, quoted_cost_cents: null };

/** Inserts one event row as the schema at hand takes it (`old`: before events had tenants) and answers its id. */
async function insertEvent(db: Db, orderId: OrderId, old = false): Promise<number> {
  const event = { order_id: orderId, status: "pending_dispatch" as const };
  const [row] = old
    ? await db<Record<string, unknown>>("order_events").insert(event).returning("id")
    : await db("order_events")
        .insert({ ...event, ...tenants[orderId], ...shown, type: "order.status_changed" })
        .returning("id");
  return Number(row.id);
}

/** Takes an id and rolls back: a hole. */
async function hole(db: Db, orderId: OrderId, old = false): Promise<void> {
  await db
    .transaction(async (trx) => {
      await insertEvent(trx, orderId, old);
      throw new Error("rolled back");
    })
    .catch(() => undefined);
}

const seqs = async (db: Db) =>
  (await db("order_events").orderBy("id").select("id", "seq", "account", "environment")).map((r) => ({
    id: r.id,
    seq: r.seq,
    tenant: `${r.account}/${r.environment}`,
  }));

for (const target of databases()) {
  describe(`event sequence (${target.name})`, function () {
    this.timeout(60_000);
    let drop: () => Promise<void>;
    let db: Db;
    const old: number[] = [];
    before(async () => {
      const created = await target.create();
      drop = () => created.drop();
      db = createDb(created.url);
      await migrateThrough(db, lastBefore);
      await db("orders").insert([order("ord_a", "acme", "test"), order("ord_b", "bolt", "live")]);
      old.push(await insertEvent(db, "ord_a", true));
      await hole(db, "ord_a", true);
      old.push(await insertEvent(db, "ord_b", true));
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await drop();
    });

    it("gives events written before it seq = id and their order's tenant", async () => {
      assert.deepEqual(await seqs(db), [
        { id: old[0], seq: old[0], tenant: "acme/test" },
        { id: old[1], seq: old[1], tenant: "bolt/live" },
      ]);
    });

    it("numbers new committed rows after the largest seq in id order, without the holes", async () => {
      await hole(db, "ord_b");
      const a = await insertEvent(db, "ord_b");
      await hole(db, "ord_a");
      const b = await insertEvent(db, "ord_a");
      assert.equal(await sequencePending(db, false), 2);
      const rows = (await seqs(db)).slice(2);
      assert.deepEqual(rows, [
        { id: a, seq: old[1] + 1, tenant: "bolt/live" },
        { id: b, seq: old[1] + 2, tenant: "acme/test" },
      ]);
      assert.equal(await sequencePending(db, false), 0);
    });

    if (target.name === "postgres")
      it("leaves a row uncommitted at the pass for a later pass, after the rows committed before it", async () => {
        const trx = await db.transaction();
        try {
          const late = await insertEvent(trx, "ord_a"); // smaller id, commits last
          const early = await insertEvent(db, "ord_b");
          assert.equal(await sequencePending(db, false), 1);
          await trx.commit();
          assert.equal(await sequencePending(db, true), 1);
          const bySeq = (await seqs(db)).sort((x, y) => x.seq! - y.seq!).map((r) => r.id);
          assert.deepEqual(bySeq.slice(-2), [early, late]);
        } finally {
          if (!trx.isCompleted()) await trx.rollback();
        }
      });

    it("continues after the largest seq ever given when the rows holding it are deleted (a sandbox reset)", async () => {
      const removed = await insertEvent(db, "ord_b");
      assert.equal(await sequencePending(db, true), 1);
      const top = await feedHead(db);
      assert.equal(Number((await db("order_events").where({ id: removed }).first("seq"))?.seq), top);
      await db("order_events").where({ id: removed }).delete();
      const next = await insertEvent(db, "ord_a");
      assert.equal(await sequencePending(db, true), 1);
      assert.equal(Number((await db("order_events").where({ id: next }).first("seq"))?.seq), top + 1);
      assert.equal(await feedHead(db), top + 1);
    });
  });
}
