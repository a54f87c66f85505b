// Rate limits shared through Redis across two server processes' worth of instances, and Redis outages.
import assert from "node:assert/strict";
import { quoteRequest } from "../fixtures/requests.js";
import { postgresDatabase, startTestServer, type TestServer, type ServerTarget } from "../helpers/server.js";

const quote = ({ url, fetch }: ServerTarget, key: string) =>
  fetch(`${url}/api/dispatch/v1/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(quoteRequest),
  });

describe("rate limit with Redis", function () {
  this.timeout(90_000);
  const redisUrl = process.env.TEST_REDIS_URL;
  const pg = postgresDatabase();

  it("holds one key's limit across two instances on one Postgres and one Redis", async function () {
    if (!redisUrl || !pg) this.skip();
    const a: TestServer = await startTestServer(pg, { REDIS_URL: redisUrl }, { inject: true });
    const b: TestServer = await startTestServer(
      pg,
      {
        REDIS_URL: redisUrl,
        DATABASE_URL: a.databaseUrl,
        DISPATCH_SEED_DEMO: "false",
      },
      { inject: true },
    );
    try {
      const { key } = await a.issueKey({ account: "scaled" });
      const statuses: number[] = [];
      for (let i = 0; i < 200; i++) statuses.push((await quote(i % 2 ? a : b, key)).status);
      assert.deepEqual([...new Set(statuses)], [200]);
      assert.equal((await quote(a, key)).status, 429);
      assert.equal((await quote(b, key)).status, 429);
    } finally {
      await b.stop();
      await a.stop();
    }
  });

  it("falls back to per-instance memory limits when Redis is unreachable (no 500)", async () => {
    const t = await startTestServer(undefined, { REDIS_URL: "redis://127.0.0.1:1" }, { inject: true });
    try {
      const { key } = await t.issueKey();
      const statuses: number[] = [];
      for (let i = 0; i < 201; i++) statuses.push((await quote(t, key)).status);
      assert.equal(statuses.filter((s) => s === 200).length, 200);
      assert.equal(statuses[200], 429);
    } finally {
      await t.stop();
    }
  });
});
