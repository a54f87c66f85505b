// Evals are public and unlimited: concurrent and repeated callers within EVALS_CACHE_MS share one computation,
// so a flood costs one window read per period, whatever the order volume.
import assert from "node:assert/strict";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

for (const db of databases()) {
  describe(`evals cache (${db.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    before(async () => {
      t = await startTestServer(db, { EVALS_CACHE_MS: "60000" }, { inject: true });
    });
    after(() => t.stop());

    const evals = async (period = "rolling_7d") =>
      (await (await t.fetch(`${t.url}/api/dispatch/analytics/evals?period=${period}`)).json()) as {
        generated_at: string;
        metrics: { goal_fulfillment_rate: { sample_size: number } };
      };

    it("eight concurrent callers of one period share one computation (one read of the window's orders)", async () => {
      const reads: string[] = [];
      const listener = (q: { sql: string }) => {
        if (q.sql.includes(`from "orders"`)) reads.push(q.sql);
      };
      t.app.services.db.on("query", listener);
      try {
        const documents = await Promise.all(Array.from({ length: 8 }, () => evals("rolling_30d")));
        assert.equal(new Set(documents.map((d) => d.generated_at)).size, 1);
      } finally {
        t.app.services.db.removeListener("query", listener);
      }
      assert.equal(reads.length, 1, reads.join("\n"));
    });

    it("serves the same document within the interval, even after new live orders", async () => {
      const first = await evals();
      const live = (await t.issueKey({ account: "cached", environment: "live" })).key;
      assert.equal((await postOrder(t, { "x-api-key": live }, orderRequest)).status, 201);
      const second = await evals();
      assert.equal(second.generated_at, first.generated_at);
      assert.equal(second.metrics.goal_fulfillment_rate.sample_size, first.metrics.goal_fulfillment_rate.sample_size);
    });
  });
}
