// Upgrading databases that recorded migrations under earlier names, and the audit log's renamed column and table:
// a database recorded with the old order_lifecycle name, or with the four migrations that shared 20261127160000,
// migrates on, and old audit rows keep their chain hash.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate, migrationSource, renamedMigrations } from "../../server/db/migrate.js";
import { auditLogLockId } from "../../server/services/audit/sequencer.js";
import { migrateThrough } from "../helpers/migrations.js";
import { databases } from "../helpers/server.js";

const oldName = "20261123110000_order_lifecycle";

for (const target of databases()) {
  describe(`migration names (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;
    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      // A database from before the rename: order_lifecycle applied and recorded under the timestamp it shared.
      await migrateThrough(db, renamedMigrations[oldName]);
      await db("knex_migrations").where({ name: renamedMigrations[oldName] }).update({ name: oldName });
      // The table as it was before the rename (prev_hash), not today's typed row.
      await db<Record<string, unknown>>("audit_records").insert({
        seal: "seal_old",
        prev_hash: "ab".repeat(32),
        type: "order",
        account: "acme",
        subject: "ord_1",
        content: "{}",
        recorded_at: new Date(),
      });
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("upgrades a database that recorded order_lifecycle under its old name, applying it once", async () => {
      const recorded = (await db("knex_migrations").orderBy("id").pluck("name")) as string[];
      const files = (await migrationSource.getMigrations([])).map((f) => migrationSource.getMigrationName(f));
      assert.deepEqual(recorded, files);
      assert.equal(await db.schema.hasColumn("orders", "cancellation"), true);
    });

    it("keeps a pre-tree record's chain hash under the column's new name", async () => {
      const row = await db("audit_records").where({ seal: "seal_old" }).first("pre_tree_previous_hash");
      assert.equal(row?.pre_tree_previous_hash, "ab".repeat(32));
      assert.equal(await db.schema.hasColumn("audit_records", "prev_hash"), false);
    });

    it("names the purge's records audit_purge_boundaries, still append-only", async () => {
      assert.equal(await db.schema.hasTable("audit_anchor"), false);
      await assert.rejects(db.raw("truncate audit_purge_boundaries"), /audit_purge_boundaries is append-only/);
    });

    it("has the purge take the audit log's lock, the sequencer's", async () => {
      const { rows } = await db.raw(
        "select pg_get_functiondef('audit_purge_expired(timestamptz)'::regprocedure) as def",
      );
      assert.match(rows[0].def as string, new RegExp(`pg_advisory_xact_lock\\(${String(auditLogLockId)}\\)`));
    });

    it("does not purge a record the sequencer has not put in the tree yet", async () => {
      const { rows } = await db.raw("select audit_purge_expired(?::timestamptz) as purged", [
        new Date(Date.now() + 8 * 365 * 86_400_000).toISOString(),
      ]);
      const pending = Number((await db("audit_pending").count({ n: "*" }))[0]?.n ?? 0);
      const left = Number((await db("audit_records").count({ n: "*" }))[0]?.n ?? 0);
      assert.ok(pending > 0, "the record inserted above waits in audit_pending");
      assert.deepEqual([Number(rows[0].purged), left], [0, 1]);
    });
  });
}

/** The migrations that shared 20261127160000 (agent_confirmations kept its name), by their recorded names. */
const sharedTimestamp = Object.keys(renamedMigrations).filter((name) => name.startsWith("20261127160000_"));

for (const target of databases()) {
  describe(`migrations that shared a timestamp (${target.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof target.create>>;
    let db: Db;
    before(async () => {
      created = await target.create();
      db = createDb(created.url);
      // A database from before the renames: the four applied and recorded under 20261127160000, nothing after them.
      await migrateThrough(db, renamedMigrations["20261127160000_sandbox_clocks"]);
      for (const recorded of sharedTimestamp)
        await db("knex_migrations").where({ name: renamedMigrations[recorded] }).update({ name: recorded });
      await migrate(db);
    });
    after(async () => {
      await db.destroy();
      await created.drop();
    });

    it("records today's names and applies what came after them, each once", async () => {
      assert.equal(sharedTimestamp.length, 3);
      const recorded = (await db("knex_migrations").orderBy("id").pluck("name")) as string[];
      const files = (await migrationSource.getMigrations([])).map((f) => migrationSource.getMigrationName(f));
      assert.deepEqual(recorded, files);
      assert.equal(await db.schema.hasTable("sandbox_clocks"), true);
      assert.equal(await db.schema.hasTable("order_price_revisions"), true);
      assert.equal(await db.schema.hasColumn("orders", "sandbox_scenario"), true); // a migration after the four
    });
  });
}
