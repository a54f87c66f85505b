// The pool's candidates for a trade and state (contractors.ts candidates) on every test database: worked out once per
// pool read and shared, in id order, and dropped with the pool when a contractor changes.
import assert from "node:assert/strict";
import { createChangeFeed } from "../../server/db/change-feed.js";
import { createDb } from "../../server/db/knex.js";
import { migrate } from "../../server/db/migrate.js";
import { createContractorService } from "../../server/services/dispatch/contractors.js";
import { databases } from "../helpers/server.js";

const contractor = (name: string, trades: ("plumbing" | "hvac")[], state: "TX" | "OK") => ({
  name,
  trades,
  service_areas: [{ state }],
  hourly_rate_cents: 9000,
  base_response_minutes: 60,
});

for (const database of databases()) {
  describe(`contractor candidates (${database.name})`, function () {
    this.timeout(60_000);

    it("are the pool's active contractors of the trade and state, one shared list until the pool changes", async () => {
      const created = await database.create();
      const db = createDb(created.url);
      const feed = createChangeFeed(created.url);
      try {
        await migrate(db);
        await feed.start(() => undefined);
        const contractors = createContractorService(db, feed);
        await contractors.createMany([
          contractor("TX plumbing", ["plumbing"], "TX"),
          contractor("TX plumbing and HVAC", ["plumbing", "hvac"], "TX"),
          contractor("OK plumbing", ["plumbing"], "OK"),
          contractor("TX HVAC", ["hvac"], "TX"),
        ]);
        const names = (list: readonly { name: string }[]) => list.map((c) => c.name);
        // once the change feed listens, the pool is cached: the same list, not filtered again
        const same = async () =>
          (await contractors.candidates("plumbing", "tx")) === (await contractors.candidates("plumbing", "TX"));
        await waitFor(same);
        const first = await contractors.candidates("plumbing", "tx");
        assert.deepEqual(names(first), ["TX plumbing", "TX plumbing and HVAC"]);
        assert.deepEqual(names(await contractors.candidates("hvac", "TX")), ["TX plumbing and HVAC", "TX HVAC"]);
        assert.deepEqual(names(await contractors.candidates("plumbing", "OK")), ["OK plumbing"]);
        assert.deepEqual(await contractors.candidates("plumbing", "NM"), []);
        await contractors.update(first[0].id, { active: false });
        await waitFor(async () => (await contractors.candidates("plumbing", "TX")).length === 1);
        assert.deepEqual(names(await contractors.candidates("plumbing", "TX")), ["TX plumbing and HVAC"]);
      } finally {
        await feed.stop();
        await db.destroy();
        await created.drop();
      }
    });
  });
}

/** Polls `ready` every 20 ms for up to 5 s (the change feed's notice reaches the pool cache). */
async function waitFor(ready: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail("not within 5 s");
}
