// The contractor availability migration on every test database: contractors stored before it keep today's
// behaviour (always working, the capacity bounds' maxima) in the zone of their first service area's state, and the
// new columns hold the contract's bounds (check constraints), so no writer can store what the contract refuses.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate, migrationSource } from "../../server/db/migrate.js";
import { migrateThrough } from "../helpers/migrations.js";
import { databases } from "../helpers/server.js";

const previous = "20261126100000_event_references";
const always = [{ start: "00:00", end: "24:00" }];
const storedContractor = (id: string, state: string) => ({
  id,
  ref: id,
  name: `Old ${id}`,
  trades: JSON.stringify(["plumbing"]),
  service_areas: JSON.stringify([{ state }, { state: "NY" }]),
  hourly_rate_cents: 9000,
  base_response_minutes: 120,
});

for (const target of databases()) {
  describe(`contractor availability migration (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;
    const insert = (fields: Record<string, unknown>) =>
      db("contractors").insert({
        ...storedContractor("ctr_new", "TX"),
        time_zone: "UTC",
        base_zip: "78701",
        ...fields,
      });

    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      await migrateThrough(db, previous);
      for (const [id, state] of [
        ["ctr_tx", "TX"],
        ["ctr_hi", "HI"],
        ["ctr_ca", "CA"],
      ])
        await db("contractors").insert(storedContractor(id, state));
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("gives existing contractors their first state's zone, always-working hours and the maximal capacity", async () => {
      const rows = await db("contractors").orderBy("id");
      assert.deepEqual(
        rows.map((r) => [r.id, r.time_zone]),
        [
          ["ctr_ca", "America/Los_Angeles"],
          ["ctr_hi", "Pacific/Honolulu"],
          ["ctr_tx", "America/Chicago"],
        ],
      );
      for (const row of rows) {
        assert.deepEqual(row.working_hours, {
          monday: always,
          tuesday: always,
          wednesday: always,
          thursday: always,
          friday: always,
          saturday: always,
          sunday: always,
        });
        assert.deepEqual([row.concurrent_jobs, row.jobs_per_day], [100, 1000]);
      }
    });

    const refused = [
      { what: "0 jobs at once", fields: { concurrent_jobs: 0 }, constraint: /contractors_concurrent_jobs_range/ },
      { what: "101 jobs at once", fields: { concurrent_jobs: 101 }, constraint: /contractors_concurrent_jobs_range/ },
      { what: "1001 jobs a day", fields: { jobs_per_day: 1001 }, constraint: /contractors_jobs_per_day_range/ },
      { what: "hours that are not an object", fields: { working_hours: "[]" }, constraint: /working_hours_shape/ },
      {
        what: "hours over 4 KiB",
        fields: { working_hours: JSON.stringify({ monday: "x".repeat(4100) }) },
        constraint: /working_hours_shape/,
      },
      {
        what: "a zone over 64 characters",
        fields: { time_zone: "A".repeat(65) },
        constraint: /too long|value too long/,
      },
      { what: "no zone", fields: { time_zone: null }, constraint: /null value|not-null/ },
    ];
    for (const { what, fields, constraint } of refused)
      it(`refuses to store ${what}`, async () => {
        await assert.rejects(insert(fields), constraint);
      });

    it("rolls back to the previous schema and forward again", async () => {
      await db.migrate.down({ migrationSource, name: "20261127100000_contractor_availability" }); // not a later one
      assert.equal(await db.schema.hasColumn("contractors", "working_hours"), false);
      await migrate(db);
      assert.equal((await db("contractors").where({ id: "ctr_hi" }).first())?.time_zone, "Pacific/Honolulu");
    });

    it("stores the bounds themselves", async () => {
      await insert({ concurrent_jobs: 1, jobs_per_day: 1000, time_zone: "America/Indiana/Indianapolis" });
      await db("contractors").where({ id: "ctr_new" }).delete();
    });
  });
}
