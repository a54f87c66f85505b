// Scale-out: two server processes on one Postgres and one Redis. One key's rate limit holds across both,
// concurrent retries of one order spread over both create exactly one order, and concurrent advances of one
// sandbox clock spread over both take it one at a time.
import assert from "node:assert/strict";
import pg from "pg";
import { orderRequest, quoteRequest } from "../fixtures/requests.js";
import { twoBuiltProcesses } from "../helpers/server-process.js";
import { adminToken } from "../helpers/server.js";
import { jsonRequest } from "../helpers/request.js";

describe("scale-out: two server processes", function () {
  this.timeout(120_000);
  const servers = twoBuiltProcesses({ SANDBOX_STEP_MS: "0" });
  let a: string;
  let b: string;
  let key: string;

  before(async function () {
    ({ a, b } = servers);
    const issued = await fetch(`${a}/api/admin/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ account: "scale", environment: "test" }),
    });
    key = (await issued.json()).key;
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
    const client = new pg.Client(servers.databaseUrl);
    await client.connect();
    const { rows } = await client.query("select count(*)::int as n from orders where reference_id = 'scale-out-1'");
    await client.end();
    assert.equal(rows[0].n, 1);
  });

  it("takes one advance of a sandbox clock at a time: of ten 1 h advances over both, each 200 is an hour in turn", async () => {
    const issued = await fetch(`${a}/api/admin/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ account: "scale-clock", environment: "test" }),
    });
    const clockKey = (await issued.json()).key;
    const advance = async (base: string, by: string) => {
      const response = await post(base, "/api/dispatch/v1/sandbox/clock/advance", { by }, { "x-api-key": clockKey });
      return { status: response.status, body: await response.json() };
    };
    const start = Date.parse((await advance(a, "0s")).body.now);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => advance(i % 2 ? a : b, "1h")));
    const refused = answers.filter((answer) => answer.status !== 200);
    assert.ok(refused.length > 0, "the advances overlapped: some were refused");
    for (const answer of refused) assert.deepEqual([answer.status, answer.body.code], [409, "clock_advancing"]);
    const walks = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => [Date.parse(answer.body.advance.from), Date.parse(answer.body.now)])
      .sort((one, other) => one[0] - other[0]);
    let at = start;
    for (const [from, now] of walks) {
      assert.deepEqual([from, now - from], [at, 3_600_000], "each 200 moved the clock an hour from its own start");
      at = now;
    }
    const clock = await fetch(`${b}/api/dispatch/v1/sandbox/clock`, { headers: { "x-api-key": clockKey } });
    assert.equal(Date.parse((await clock.json()).now), at, "an hour per advance answered 200, no more, no less");
  });
});
