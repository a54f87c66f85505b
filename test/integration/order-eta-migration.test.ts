// The order ETA migration on every test database: orders assigned before it get the estimate their assignment
// made (the match's response minutes from the moment of assignment, source dispatch), unassigned ones none; the
// three columns are stored whole or not at all, with a source the server writes; and it rolls back and forward.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate, migrationSource } from "../../server/db/migrate.js";
import { migrateThrough, storedOrder } from "../helpers/migrations.js";
import { databases } from "../helpers/server.js";

const previous = "20261127120000_order_escalation";
const tenant = { account: "acme", environment: "test", key_id: "key_1" } as const;
const createdAt = new Date("2026-11-23T15:02:11.000Z");
const contractor = {
  id: "ctr_old",
  ref: "ctr_****0old",
  name: "Old Plumbing",
  trades: JSON.stringify(["plumbing"]),
  service_areas: JSON.stringify([{ state: "TX" }]),
  hourly_rate_cents: 9000,
  base_response_minutes: 120,
  time_zone: "America/Chicago",
};

for (const target of databases()) {
  describe(`order ETA migration (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;
    const eta = async (id: string) =>
      db("orders").where({ id }).first("eta_at", "eta_updated_at", "eta_source") as Promise<Record<string, unknown>>;

    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      await migrateThrough(db, previous);
      await db("contractors").insert(contractor);
      await db("orders").insert([
        storedOrder("ord_assigned", {
          ...tenant,
          contractor_id: contractor.id,
          estimated_response_minutes: 150,
          dispatch_latency_ms: 2_500,
          created_at: createdAt,
        }),
        storedOrder("ord_waiting", { ...tenant, status: "accepted_pending_fulfilment", created_at: createdAt }),
      ]);
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("gives an assigned order the estimate its assignment made, and an unassigned one none", async () => {
      const assignedAt = new Date(createdAt.getTime() + 2_500);
      assert.deepEqual(await eta("ord_assigned"), {
        eta_at: new Date(assignedAt.getTime() + 150 * 60_000),
        eta_updated_at: assignedAt,
        eta_source: "dispatch",
      });
      assert.deepEqual(await eta("ord_waiting"), { eta_at: null, eta_updated_at: null, eta_source: null });
    });

    const refused = [
      { what: "a time without its source", fields: { eta_at: createdAt, eta_updated_at: createdAt } },
      { what: "a source without a time", fields: { eta_source: "dispatch" } },
      {
        what: "a source the server does not write",
        fields: { eta_at: createdAt, eta_updated_at: createdAt, eta_source: "guess" },
      },
    ];
    for (const { what, fields } of refused)
      it(`refuses to store ${what}`, async () => {
        await assert.rejects(
          db<Record<string, unknown>>("orders").where({ id: "ord_waiting" }).update(fields),
          /orders_eta_(whole|source)/,
        );
      });

    it("rolls back to the previous schema and forward again", async () => {
      await db.migrate.down({ migrationSource, name: "20261127134500_order_eta" });
      assert.equal(await db.schema.hasColumn("orders", "eta_at"), false);
      await migrate(db);
      assert.equal((await eta("ord_assigned")).eta_source, "dispatch");
    });
  });
}
