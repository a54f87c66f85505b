// Scale-out: two server processes on one Postgres and one Redis. One key's rate limit holds across both,
// and concurrent retries of one order spread over both create exactly one order.
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { orderRequest, quoteRequest } from "../fixtures/requests.js";
import { startReadyServer } from "../helpers/server-process.js";
import { adminToken, postgresDatabase } from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import { jsonRequest } from "../helpers/request.js";

describe("scale-out: two server processes", function () {
  this.timeout(120_000);
  const pgDb = postgresDatabase();
  const redisUrl = process.env.TEST_REDIS_URL;
  let database: { url: string; drop(): Promise<void> };
  const procs: ChildProcess[] = [];
  let a: string;
  let b: string;
  let key: string;

  before(async function () {
    if (!pgDb || !redisUrl) this.skip();
    database = await pgDb.create();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      DISPATCH_ADMIN_TOKEN: adminToken,
      SANDBOX_STEP_MS: "0",
    };
    const first = await startReadyServer(env); // migrates and seeds before the second starts
    const second = await startReadyServer(env);
    procs.push(first.child, second.child);
    [a, b] = [first.url, second.url];
    const issued = await fetch(`${a}/api/admin/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ account: "scale", environment: "test" }),
    });
    key = (await issued.json()).key;
  });
  after(async () => {
    for (const child of procs) child.kill("SIGTERM");
    await until(() => procs.every((child) => child.exitCode !== null || child.signalCode !== null), {
      timeoutMs: 10_000,
    });
    await database?.drop();
  });

  const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    jsonRequest(base, "POST", path, { headers: { "x-api-key": key, ...headers }, body });

  it("holds one key's rate limit across both processes", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++)
      statuses.push((await post(i % 2 ? a : b, "/api/dispatch/v1/quote", quoteRequest)).status);
    assert.deepEqual([...new Set(statuses)], [200]);
    assert.equal((await post(a, "/api/dispatch/v1/quote", quoteRequest)).status, 429);
    assert.equal((await post(b, "/api/dispatch/v1/quote", quoteRequest)).status, 429);
  });

  it("creates one order for 50 concurrent retries spread over both processes", async () => {
    const other = await fetch(`${a}/api/admin/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ account: "scale", environment: "test" }),
    });
    const orderKey = (await other.json()).key;
    const body = { ...orderRequest, reference_id: "scale-out-1" };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(i % 2 ? a : b, "/api/dispatch/v1/order", body, { "x-api-key": orderKey }),
      ),
    );
    const bodies = await Promise.all(answers.map((r) => r.json()));
    assert.deepEqual([...new Set(answers.map((r) => r.status))], [201]);
    assert.equal(new Set(bodies.map((x) => x.order.id)).size, 1);
    const client = new pg.Client(database.url);
    await client.connect();
    const { rows } = await client.query("select count(*)::int as n from orders where reference_id = 'scale-out-1'");
    await client.end();
    assert.equal(rows[0].n, 1);
  });
});
