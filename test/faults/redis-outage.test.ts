// Fault: Redis (the shared rate-limit store) dies and comes back while requests flow. Documented behaviour:
// each instance falls back to its own in-memory windows (rate-limiter-flexible's insurance limiter), so
// requests keep being answered — never a 500 — and the shared store is used again once Redis is back. The built
// server runs it, on Postgres when the tests have one (the configuration that shares limits across instances).
import assert from "node:assert/strict";
import { quoteRequest } from "../fixtures/requests.js";
import { startPrivateRedis, type PrivateRedis } from "../helpers/private-services.js";
import { startBuiltServer, type BuiltServer } from "../helpers/server-process.js";
import { postgresDatabase } from "../helpers/server.js";
import { until } from "../helpers/wait.js";

describe("fault: Redis outage", function () {
  this.timeout(60_000);
  let redis: PrivateRedis;
  let t: BuiltServer;
  before(async () => {
    redis = await startPrivateRedis();
    t = await startBuiltServer(postgresDatabase(), { REDIS_URL: redis.url });
  });
  after(async () => {
    await t?.stop();
    await redis?.stop();
  });

  it("keeps answering through the outage and limits again from Redis afterwards", async () => {
    const { key } = await t.issueKey({ account: "redis-faults" });
    const quote = async () =>
      (
        await fetch(`${t.url}/api/dispatch/v1/quote`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify(quoteRequest),
        })
      ).status;
    const before = await Promise.all(Array.from({ length: 5 }, quote));
    await redis.stop();
    const during: number[] = [];
    for (let i = 0; i < 20; i++) during.push(await quote());
    await redis.start();
    // ioredis reconnects with backoff: /readyz pings the store through the same client.
    const storeAnswers = async () =>
      ((await (await fetch(`${t.url}/readyz`)).json()) as { checks?: Record<string, string> }).checks
        ?.rate_limit_store === "ok";
    await until(storeAnswers, { timeoutMs: 15_000, intervalMs: 50, message: "the rate-limit store to answer again" });
    const after: number[] = [];
    for (let i = 0; i < 20; i++) after.push(await quote());
    assert.deepEqual([...new Set([...before, ...during, ...after])], [200]);
    const { execFileSync } = await import("node:child_process");
    const keys = execFileSync("redis-cli", ["-p", new URL(redis.url).port, "--scan", "--pattern", "rl:*"])
      .toString()
      .trim()
      .split("\n")
      .filter(Boolean);
    assert.ok(keys.length > 0, "the restarted Redis holds the limiter's windows again");
  });
});
