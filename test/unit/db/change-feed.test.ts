// The change feed keeps its LISTEN connection up with the background-job helper: a connection cut by the server
// is noticed ("*" announced, not live), replaced, and stop() leaves no connection or timer behind.
import assert from "node:assert/strict";
import pg from "pg";
import { createChangeFeed } from "../../../server/db/change-feed.js";
import { until } from "../../helpers/wait.js";

const databaseUrl = process.env.TEST_DATABASE_URL;

/** Polls every 20 ms, up to 20 s. */
const feedWait = { timeoutMs: 20_000, intervalMs: 20 };

/** This suite's own sessions (other suites may share the database server). */
const applicationName = `dispatch_feed_test_${String(process.pid)}`;

/** Ends this suite's LISTEN session, as a database restart would. */
async function cutListeners(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const cut = await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()",
      [applicationName],
    );
    return cut.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describe("change feed", () => {
  describe("start()", () => {
    it("is live at once on PGlite and needs no connection", async () => {
      const feed = createChangeFeed("pglite://memory");
      await feed.start(() => assert.fail("no errors expected"));
      assert.equal(feed.live, true);
      await feed.stop();
    });

    it("reconnects after the server cuts the LISTEN connection, announcing '*' both times", async function () {
      if (!databaseUrl) this.skip();
      const url = new URL(databaseUrl);
      url.searchParams.set("application_name", applicationName);
      const feed = createChangeFeed(url.toString());
      const heard: string[] = [];
      feed.on((table) => heard.push(table));
      await feed.start((error) => {
        throw error instanceof Error ? error : new Error(String(error));
      });
      try {
        assert.equal(feed.live, true);
        heard.length = 0;
        assert.ok((await cutListeners(databaseUrl)) >= 1, "a LISTEN session to cut");
        await until(() => !feed.live, feedWait);
        assert.equal(heard[0], "*", "a lost connection announces that anything may have changed");
        await until(() => feed.live, feedWait);
        assert.ok(heard.filter((table) => table === "*").length >= 2, `heard ${heard.join(", ")}`);
      } finally {
        await feed.stop();
      }
      assert.equal(feed.live, false);
    });

    it("hands each failed reconnect to onError until stopped", async function () {
      if (!databaseUrl) this.skip();
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      const name = `dispatch_feed_${String(process.pid)}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(databaseUrl);
      url.pathname = `/${name}`;
      const feed = createChangeFeed(url.toString());
      const errors: Error[] = [];
      try {
        await feed.start((error) => errors.push(error as Error));
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`); // cuts the feed; every reconnect now fails
        await until(() => errors.length >= 2, feedWait);
      } finally {
        await feed.stop();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
      assert.match(errors[0].message, /does not exist/);
      assert.equal(feed.live, false);
    });
  });
});
