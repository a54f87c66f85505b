// The events-written-once migrations on every test database: each stored event gets what it shows of its order as
// its change left it — the status before and the reference exactly, the contractor whose offer held the order then
// (its price from the audit log's match record when another contractor holds the order now), the order's own for one
// assigned before offers were kept, none while it waited — and the feed head starts at the largest seq given.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate, migrationSource } from "../../server/db/migrate.js";
import { migrateThrough, storedOrder } from "../helpers/migrations.js";
import { databases } from "../helpers/server.js";

const previous = "20261127180000_sandbox_clock_notices";
const tenant = { account: "acme", environment: "live" } as const;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 12, minute));

const contractor = (id: string) => ({
  id,
  ref: `ctr_****${id.slice(-4)}`,
  name: id,
  trades: JSON.stringify(["plumbing"]),
  service_areas: JSON.stringify([{ state: "AK" }]),
  hourly_rate_cents: 9000,
  base_response_minutes: 60,
  time_zone: "America/Anchorage",
});
const offer = (
  id: string,
  contractorId: string,
  minute: number,
  status: "accepted" | "declined",
  answered: number,
) => ({
  id,
  order_id: "ord_moved",
  contractor_id: contractorId,
  ...tenant,
  status,
  created_at: at(minute),
  deadline_at: at(minute + 30),
  responded_at: at(answered),
});
const match = (contractorId: string, cost: number, seal: string) => ({
  seal,
  type: "match" as const,
  ...tenant,
  subject: "ord_moved",
  content: JSON.stringify({ contractor_ref: `ctr_****${contractorId.slice(-4)}`, quoted_cost_cents: cost }),
  recorded_at: at(0),
});

/** Events as the table stored them before the migration: [order, type, status, minute]. */
const stored = [
  ["ord_moved", "order.created", "pending_dispatch", 0],
  ["ord_moved", "order.assigned", "pending_dispatch", 0],
  ["ord_moved", "order.assigned", "pending_dispatch", 5], // declined by ctr_aaaa, re-offered to ctr_bbbb
  ["ord_moved", "order.status_changed", "dispatched", 6],
  ["ord_moved", "order.assigned", "dispatched", 6],
  ["ord_plain", "order.created", "accepted_pending_fulfilment", 0],
  ["ord_plain", "order.status_changed", "pending_dispatch", 3], // assigned before offers were kept
  ["ord_plain", "order.cancelled", "cancelled", 4],
] as const;

for (const target of databases()) {
  describe(`events written once migration (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;
    const shown = async (orderId: string) =>
      (await db("order_events").where({ order_id: orderId }).orderBy("id")).map((e) => [
        e.type,
        e.previous_status,
        e.reference_id,
        e.contractor_id,
        e.quoted_cost_cents,
      ]);

    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      await migrateThrough(db, previous);
      await db("contractors").insert([contractor("ctr_aaaa"), contractor("ctr_bbbb")]);
      await db("orders").insert([
        storedOrder("ord_moved", { key_id: "k", ...tenant, reference_id: "wo-1", status: "dispatched" }),
        storedOrder("ord_plain", { key_id: "k", ...tenant, reference_id: null, status: "cancelled" }),
      ]);
      await db("orders").where({ id: "ord_moved" }).update({ contractor_id: "ctr_bbbb", quoted_cost_cents: 20_000 });
      await db("orders").where({ id: "ord_plain" }).update({ contractor_id: "ctr_aaaa", quoted_cost_cents: 15_000 });
      await db("order_offers").insert([
        offer("ofr_1", "ctr_aaaa", 0, "declined", 5),
        offer("ofr_2", "ctr_bbbb", 5, "accepted", 6),
      ]);
      await db("audit_records").insert([match("ctr_aaaa", 10_000, "seal_a"), match("ctr_bbbb", 20_000, "seal_b")]);
      let seq = 40; // numbered before the migration, as the sequencer left them
      for (const [order_id, type, status, minute] of stored)
        await db<Record<string, unknown>>("order_events").insert({
          order_id,
          type,
          status,
          at: at(minute),
          seq: ++seq,
          ...tenant,
        });
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("fills each stored event with the order as its change left it, as far as offers and the audit log tell", async () => {
      assert.deepEqual(await shown("ord_moved"), [
        ["order.created", null, "wo-1", "ctr_aaaa", 10_000],
        ["order.assigned", null, "wo-1", "ctr_aaaa", 10_000],
        ["order.assigned", null, "wo-1", "ctr_bbbb", 20_000],
        ["order.status_changed", "pending_dispatch", "wo-1", "ctr_bbbb", 20_000],
        ["order.assigned", "pending_dispatch", "wo-1", "ctr_bbbb", 20_000],
      ]);
      assert.deepEqual(await shown("ord_plain"), [
        ["order.created", null, null, null, null],
        ["order.status_changed", "accepted_pending_fulfilment", null, "ctr_aaaa", 15_000],
        ["order.cancelled", "pending_dispatch", null, "ctr_aaaa", 15_000],
      ]);
    });

    it("starts the feed head at the largest seq given", async () => {
      const head = await db("event_feed_head").first("seq");
      assert.equal(Number(head?.seq), 40 + stored.length);
    });

    it("rolls back without the columns and the head, and forward again to the same rows", async () => {
      const filled = await shown("ord_moved");
      for (const name of ["20261129100100_event_feed_head", "20261129100000_events_written_once"])
        await db.migrate.down({ migrationSource, name });
      assert.equal(await db.schema.hasTable("event_feed_head"), false);
      assert.equal(await db.schema.hasColumn("order_events", "contractor_id"), false);
      await migrate(db);
      assert.deepEqual(await shown("ord_moved"), filled);
    });
  });
}
