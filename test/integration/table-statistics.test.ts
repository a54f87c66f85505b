// Table statistics where the database keeps none (server/db/statistics.ts): PGlite, or a Postgres without
// autovacuum, has its grown tables analysed by the server; a table analysed and not grown since is left alone; and
// the server's keeper does it on its own, stopping with the server.
import assert from "node:assert/strict";
import { analyseGrownTables, createStatisticsKeeper, keepsNoStatistics } from "../../server/db/statistics.js";
import { rawQuery } from "../../server/db/raw.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { sleep, until } from "../helpers/wait.js";

for (const database of databases()) {
  describe(`table statistics (${database.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    const db = () => t.app.services.db;
    const planned = async (table: string) =>
      (
        await rawQuery<{ reltuples: number; relpages: number }>(
          db(),
          "select reltuples::float8 as reltuples, relpages from pg_class where relname = ?",
          [table],
        )
      ).rows[0];
    const fill = (table: string, rows: number) =>
      db().raw(`insert into ?? (n, pad) select g, repeat('x', 200) from generate_series(1, ?) g`, [table, rows]);

    before(async () => {
      t = await startTestServer(database, {}, { inject: true });
    });
    after(async () => {
      await t?.stop();
    });

    it("are ours on PGlite and on a Postgres that runs without autovacuum", async () => {
      const setting = (await rawQuery<{ on: string }>(db(), "select current_setting('autovacuum') as on", [])).rows[0];
      const expected = database.name === "pglite" || setting.on !== "on";
      assert.equal(await keepsNoStatistics(db(), t.databaseUrl), expected);
    });

    it("are taken of a table grown by a fifth since its last analysis, and only then", async () => {
      await db().raw("create table stats_probe (n int, pad text)");
      await fill("stats_probe", 5_000);
      assert.ok((await analyseGrownTables(db())).includes("stats_probe"), "a table never analysed is analysed");
      assert.equal((await planned("stats_probe")).reltuples, 5_000, "the planner knows its rows");
      assert.ok(!(await analyseGrownTables(db())).includes("stats_probe"), "nothing grew: left alone");
      await fill("stats_probe", 500);
      assert.ok(!(await analyseGrownTables(db())).includes("stats_probe"), "a tenth more: left alone");
      await fill("stats_probe", 2_000);
      assert.ok((await analyseGrownTables(db())).includes("stats_probe"), "half as much again: analysed");
      assert.equal((await planned("stats_probe")).reltuples, 7_500);
    });

    it("are kept by the keeper on its own when the database keeps none, until it stops", async () => {
      await db().raw("create table stats_kept (n int, pad text)");
      await fill("stats_kept", 5_000);
      const errors: unknown[] = [];
      const keeper = createStatisticsKeeper(db(), t.databaseUrl, 200);
      keeper.start((error) => errors.push(error));
      try {
        if (await keepsNoStatistics(db(), t.databaseUrl))
          await until(async () => (await planned("stats_kept")).reltuples === 5_000, {
            timeoutMs: 10_000,
            message: "the keeper's analysis",
          });
      } finally {
        await keeper.stop();
      }
      assert.deepEqual(errors, []);
      await fill("stats_kept", 5_000);
      await sleep(600); // three of the keeper's intervals: it would have run, had it not stopped
      assert.notEqual((await planned("stats_kept")).reltuples, 10_000, "stopped: no analysis after stop()");
    });
  });
}
