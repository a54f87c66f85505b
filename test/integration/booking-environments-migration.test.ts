// The booking environments migration on every test database: bookings made before it take their order's
// environment; afterwards a test booking may hold the seats a live one holds (two ledgers) while each ledger still
// refuses a seat taken twice, and no booking can claim another environment than its order's; it rolls back (a test
// booking sharing a live seat gives way) and forward again.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate, migrationSource } from "../../server/db/migrate.js";
import { migrateThrough, storedOrder } from "../helpers/migrations.js";
import { databases } from "../helpers/server.js";

const previous = "20261127180000_sandbox_clock_notices";
const migration = "20261129120000_booking_environments";
const seats = {
  contractor_id: "ctr_shared",
  window_start: new Date("2026-11-23T18:00:00.000Z"),
  window_end: new Date("2026-11-23T20:00:00.000Z"),
  seat: 0,
  local_day: "2026-11-23",
  day_seat: 0,
};
const contractor = {
  id: seats.contractor_id,
  ref: "ctr_****ared",
  name: "Shared Plumbing",
  trades: JSON.stringify(["plumbing"]),
  service_areas: JSON.stringify([{ state: "TX" }]),
  hourly_rate_cents: 9000,
  base_response_minutes: 120,
  time_zone: "America/Chicago",
};
const order = (id: string, environment: "test" | "live") =>
  storedOrder(id, { environment, key_id: `key_${environment}`, contractor_id: seats.contractor_id });

for (const target of databases()) {
  describe(`booking environments migration (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;
    const bookings = () =>
      db("contractor_bookings").orderBy("order_id").select<{ order_id: string; environment: string }[]>();

    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      await migrateThrough(db, previous);
      await db("contractors").insert(contractor);
      await db("orders").insert([order("ord_live", "live"), order("ord_test", "test"), order("ord_test2", "test")]);
      await db<Record<string, unknown>>("contractor_bookings").insert([
        { order_id: "ord_live", ...seats },
        { order_id: "ord_test", ...seats, seat: 1, day_seat: 1 },
      ]);
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("gives each existing booking its order's environment", async () => {
      assert.deepEqual(
        (await bookings()).map((b) => [b.order_id, b.environment]),
        [
          ["ord_live", "live"],
          ["ord_test", "test"],
        ],
      );
    });

    it("lets a test booking hold a live seat, and refuses a seat taken twice in one environment", async () => {
      await db("contractor_bookings").where({ order_id: "ord_test" }).update({ seat: 0, day_seat: 0 });
      await assert.rejects(
        db("contractor_bookings").insert({ order_id: "ord_test2", environment: "test", ...seats }),
        /contractor_bookings_(window|day)_seat/,
      );
    });

    it("refuses a booking in another environment than its order's", async () => {
      await assert.rejects(
        db("contractor_bookings").insert({
          order_id: "ord_test2",
          environment: "live",
          ...seats,
          seat: 5,
          day_seat: 5,
        }),
        /contractor_bookings_order_environment/,
      );
    });

    it("rolls back to one shared ledger (the test booking on a live seat gives way) and forward again", async () => {
      // technicians' time replaced the window seat's index this migration rebuilt: it rolls back first
      await db.migrate.down({ migrationSource, name: "20261129150500_technician_slots" });
      await db.migrate.down({ migrationSource, name: migration });
      assert.equal(await db.schema.hasColumn("contractor_bookings", "environment"), false);
      assert.deepEqual(
        (await bookings()).map((b) => b.order_id),
        ["ord_live"],
      );
      await migrate(db);
      assert.deepEqual(
        (await bookings()).map((b) => [b.order_id, b.environment]),
        [["ord_live", "live"]],
      );
    });
  });
}
