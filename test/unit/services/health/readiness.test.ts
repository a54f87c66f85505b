import { strict as assert } from "node:assert";
import type { Db } from "../../../../server/db/knex.js";
import { DomainError } from "../../../../server/services/errors.js";
import { checkBudgetMs, createHealthService } from "../../../../server/services/health/readiness.js";

const never = () => new Promise<never>(() => undefined);
const dbAnswering = (raw: () => Promise<unknown>) => ({ raw }) as unknown as Db;

/** Runs `work` and returns what it settled to and how long it took. */
async function timed<T>(work: () => Promise<T>) {
  const started = performance.now();
  const outcome = await work().then(
    (value) => ({ value, error: null }),
    (error: unknown) => ({ value: null, error }),
  );
  return { ...outcome, ms: performance.now() - started };
}

describe("health service", () => {
  describe("assertReady()", () => {
    it("reports the database and the rate-limit store when both answer", async () => {
      const health = createHealthService(dbAnswering(async () => [1]));
      health.watchRateLimitStore(async () => "PONG");
      assert.deepEqual(await health.assertReady(), { database: "ok", rate_limit_store: "ok" });
    });

    it("throws not_ready within the budget when the database hangs", async () => {
      const health = createHealthService(dbAnswering(never));
      const { error, ms } = await timed(() => health.assertReady());
      assert.ok(error instanceof DomainError);
      assert.equal(error.code, "not_ready");
      assert.match(error.message, new RegExp(`within ${checkBudgetMs} ms`));
      assert.ok(ms < checkBudgetMs + 200, `${ms} ms`);
    });

    it("stays ready with the store degraded when Redis hangs or fails", async () => {
      for (const ping of [never, () => Promise.reject(new Error("Connection is closed."))]) {
        const health = createHealthService(dbAnswering(async () => [1]));
        health.watchRateLimitStore(ping);
        const { value, ms } = await timed(() => health.assertReady());
        assert.deepEqual(value, { database: "ok", rate_limit_store: "degraded" });
        assert.ok(ms < checkBudgetMs + 200, `${ms} ms`);
      }
    });
  });
});
