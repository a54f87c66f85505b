// The offer terms migration on every test database: an order's newest offer takes the order's price, NTE and window
// (what its contractor was offered, unless an operator moved the order since), an older offer of the same order none
// (its terms are gone from the order: null, never the next contractor's); rolling back drops the columns.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate, migrationSource } from "../../server/db/migrate.js";
import { migrateThrough, storedOrder } from "../helpers/migrations.js";
import { databases } from "../helpers/server.js";

const previous = "20261129120100_price_revision_withdrawn";
const migration = "20261129131700_offer_terms";
const start = new Date("2026-11-23T16:00:00.000Z");
const end = new Date("2026-11-23T18:00:00.000Z");
const offer = (id: string, contractor: string, status: string, at: string) => ({
  id,
  order_id: "ord_1",
  contractor_id: contractor,
  account: "acme",
  environment: "live",
  status,
  created_at: new Date(at),
  deadline_at: new Date(Date.parse(at) + 15 * 60_000),
  responded_at: status === "offered" ? null : new Date(Date.parse(at) + 60_000),
});

for (const target of databases()) {
  describe(`offer terms migration (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;
    const termsOf = async (id: string) => {
      const row = (await db("order_offers").where({ id }).first())!;
      const instant = (at: Date | null) => (at ? new Date(at).toISOString() : null);
      return [row.quoted_cost_cents, row.nte_cents, instant(row.arrival_window_start), instant(row.arrival_window_end)];
    };

    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      await migrateThrough(db, previous);
      await db("contractors").insert({
        id: "ctr_2",
        ref: "ctr_****0002",
        time_zone: "America/Chicago",
        name: "Second",
        trades: JSON.stringify(["plumbing"]),
        service_areas: JSON.stringify([{ state: "TX" }]),
        hourly_rate_cents: 9000,
        base_response_minutes: 60,
      });
      const order = storedOrder("ord_1", { environment: "live", key_id: "key_1", contractor_id: "ctr_2" });
      const terms = {
        quoted_cost_cents: 52_000,
        nte_cents: 100_000,
        arrival_window_start: start,
        arrival_window_end: end,
      };
      await db("orders").insert({ ...order, ...terms });
      await db("order_offers").insert(offer("ofr_1", "ctr_1", "declined", "2026-11-23T15:00:00.000Z") as never);
      await db("order_offers").insert(offer("ofr_2", "ctr_2", "offered", "2026-11-23T15:05:00.000Z") as never);
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("gives the order's newest offer the order's terms, and an older one none", async () => {
      assert.deepEqual(await termsOf("ofr_2"), [52_000, 100_000, start.toISOString(), end.toISOString()]);
      assert.deepEqual(await termsOf("ofr_1"), [null, null, null, null]);
    });

    it("rolls back without the columns, and forward again", async () => {
      await db.migrate.down({ migrationSource, name: migration });
      const columns = await db("order_offers").columnInfo();
      assert.ok(!("quoted_cost_cents" in columns) && !("arrival_window_start" in columns));
      await migrate(db);
      assert.deepEqual(await termsOf("ofr_2"), [52_000, 100_000, start.toISOString(), end.toISOString()]);
    });
  });
}
