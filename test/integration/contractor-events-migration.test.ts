// The contractor_events migration on every test database: a row is numbered once by the sequencer and otherwise
// never changed nor deleted, its type, environment and data are bounded by checks, and the migration rolls back and
// forward again.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate, migrationSource } from "../../server/db/migrate.js";
import { contractorEventsTable, sequencePending } from "../../server/services/events/sequencer.js";
import { databases } from "../helpers/server.js";

const migration = "20261129140000_contractor_events";
const row = {
  contractor_id: "ctr_1",
  environment: "live",
  account: "acme",
  order_id: "ord_1",
  offer_id: "ofr_1",
  type: "job.cancelled",
  at: new Date("2026-11-23T15:55:00.000Z"),
  data: "{}",
} as const;

for (const target of databases()) {
  describe(`contractor events migration (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;

    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("numbers a row once, then refuses every change and delete", async () => {
      const [{ id }] = await db("contractor_events").insert(row).returning("id");
      assert.equal(await sequencePending(db, true, contractorEventsTable), 1);
      const stored = await db("contractor_events").where({ id }).first();
      assert.equal(Number(stored!.seq), 1);
      await assert.rejects(db("contractor_events").where({ id }).update({ seq: 2 }), /append-only/);
      await assert.rejects(db("contractor_events").where({ id }).update({ type: "offer.created" }), /append-only/);
      await assert.rejects(db("contractor_events").where({ id }).delete(), /append-only/);
    });

    it("refuses an unknown type or environment, and data that is not an object or over 32 KiB", async () => {
      const bad = db<Record<string, unknown>>("contractor_events");
      await assert.rejects(bad.clone().insert({ ...row, type: "order.created" }), /contractor_events_type/);
      await assert.rejects(bad.clone().insert({ ...row, environment: "prod" }), /contractor_events_environment/);
      await assert.rejects(bad.clone().insert({ ...row, data: "[]" }), /contractor_events_data_shape/);
      const big = JSON.stringify({ note: "x".repeat(32_768) });
      await assert.rejects(bad.clone().insert({ ...row, data: big }), /contractor_events_data_shape/);
    });

    it("rolls back and forward again", async () => {
      await db.migrate.down({ migrationSource, name: migration });
      assert.equal(await db.schema.hasTable("contractor_events"), false);
      await migrate(db);
      assert.equal(await db.schema.hasTable("contractor_events"), true);
    });
  });
}
