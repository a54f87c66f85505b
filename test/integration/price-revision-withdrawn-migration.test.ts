// The price revision `withdrawn` migration on every test database: a pending revision may end withdrawn (resolved,
// like an answer), any other status is still refused, and rolling back turns withdrawn revisions into declined ones
// (the NTE stayed either way) before the old check returns.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate, migrationSource } from "../../server/db/migrate.js";
import { migrateThrough, storedOrder } from "../helpers/migrations.js";
import { databases } from "../helpers/server.js";

const previous = "20261129120000_booking_environments";
const migration = "20261129120100_price_revision_withdrawn";
const revision = {
  id: "prv_1",
  order_id: "ord_1",
  account: "acme",
  environment: "live",
  status: "pending",
  requested_by: "contractor",
  contractor_id: "ctr_1",
  amount_cents: 150_000,
  reason: "More work.",
  nte_cents: 100_000,
  created_at: new Date("2026-11-23T15:50:00.000Z"),
} as const;
const resolvedAt = new Date("2026-11-23T15:55:00.000Z");

for (const target of databases()) {
  describe(`price revision withdrawn migration (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;
    const statusOf = async () => (await db("order_price_revisions").where({ id: revision.id }).first())!.status;

    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      await migrateThrough(db, previous);
      await db("orders").insert(storedOrder("ord_1", { environment: "live", key_id: "key_1" }));
      await db("order_price_revisions").insert(revision);
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("ends a pending revision withdrawn, resolved, and refuses a status the service does not write", async () => {
      await db("order_price_revisions")
        .where({ id: revision.id })
        .update({ status: "withdrawn", resolved_at: resolvedAt });
      assert.equal(await statusOf(), "withdrawn");
      await assert.rejects(
        db<Record<string, unknown>>("order_price_revisions").where({ id: revision.id }).update({ status: "lapsed" }),
        /order_price_revisions_status/,
      );
    });

    it("rolls back with the withdrawn revision declined, and forward again", async () => {
      await db.migrate.down({ migrationSource, name: migration });
      assert.equal(await statusOf(), "declined");
      await assert.rejects(
        db("order_price_revisions").where({ id: revision.id }).update({ status: "withdrawn" }),
        /order_price_revisions_status/,
      );
      await migrate(db);
      await db("order_price_revisions").where({ id: revision.id }).update({ status: "withdrawn" });
      assert.equal(await statusOf(), "withdrawn");
    });
  });
}
