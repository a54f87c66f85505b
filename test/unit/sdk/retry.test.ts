// Retry of 429/503 answers honouring Retry-After, with an injected fetch and small delays.
import assert from "node:assert/strict";
import { createDispatchClient } from "../../../sdk/index.js";
import { withRetry } from "../../../sdk/retry.js";

/** A fetch that answers from a script of responses, recording when each call arrived. */
function scriptedFetch(script: (() => Response)[]) {
  const calls: number[] = [];
  const bodies: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(Date.now());
    bodies.push(await new Request(input, init).text());
    const next = script[Math.min(calls.length - 1, script.length - 1)];
    return next();
  };
  return { calls, bodies, fetch: fetch };
}

const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    new Response(null, { status: code, headers });

describe("sdk retry", () => {
  for (const code of [429, 503]) {
    it(`retries ${code} and returns the later success`, async () => {
      const { calls, fetch } = scriptedFetch([status(code, { "retry-after": "0" }), () => Response.json({ ok: true })]);
      const response = await withRetry(fetch, { retries: 2 })("http://x.test/");
      assert.equal(response.status, 200);
      assert.equal(calls.length, 2);
    });
  }

  it("waits the Retry-After seconds before the next attempt", async () => {
    const { calls, fetch } = scriptedFetch([status(429, { "retry-after": "0.15" }), () => Response.json({})]);
    await withRetry(fetch, { baseDelayMs: 1 })("http://x.test/");
    assert.ok(calls[1] - calls[0] >= 140, `waited ${calls[1] - calls[0]} ms`);
  });

  it("accepts an HTTP-date Retry-After", async () => {
    const soon = new Date(Date.now() + 1000).toUTCString();
    const { calls, fetch } = scriptedFetch([status(503, { "retry-after": soon }), () => Response.json({})]);
    await withRetry(fetch, { maxDelayMs: 20 })("http://x.test/");
    assert.equal(calls.length, 2);
  });

  it("caps a long Retry-After at maxDelayMs", async () => {
    const { calls, fetch } = scriptedFetch([status(429, { "retry-after": "3600" }), () => Response.json({})]);
    await withRetry(fetch, { maxDelayMs: 10 })("http://x.test/");
    assert.ok(calls[1] - calls[0] < 1000);
  });

  it("backs off exponentially without Retry-After and gives up after `retries`", async () => {
    const { calls, fetch } = scriptedFetch([status(503)]);
    const response = await withRetry(fetch, { retries: 2, baseDelayMs: 20 })("http://x.test/");
    assert.equal(response.status, 503);
    assert.equal(calls.length, 3);
    // Lower bounds only (timers never fire early, give or take 2 ms of clock rounding); a loaded machine only adds delay.
    assert.ok(calls[1] - calls[0] >= 20 - 2, `first pause ${calls[1] - calls[0]} ms`);
    assert.ok(calls[2] - calls[1] >= 40 - 2, `second pause ${calls[2] - calls[1]} ms`);
  });

  it("does not retry other statuses", async () => {
    const { calls, fetch } = scriptedFetch([status(500), status(200)]);
    const response = await withRetry(fetch, { baseDelayMs: 1 })("http://x.test/");
    assert.equal(response.status, 500);
    assert.equal(calls.length, 1);
  });

  it("resends the same body on every attempt", async () => {
    const { bodies, fetch } = scriptedFetch([status(429, { "retry-after": "0" }), () => Response.json({})]);
    await withRetry(fetch)("http://x.test/", { method: "POST", body: '{"a":1}' });
    assert.deepEqual(bodies, ['{"a":1}', '{"a":1}']);
  });

  describe("createDispatchClient()", () => {
    it("retries through the client by default", async () => {
      const { calls, fetch } = scriptedFetch([
        status(429, { "retry-after": "0" }),
        () => Response.json({ trades: [] }),
      ]);
      const client = createDispatchClient({ baseUrl: "http://x.test", fetch, retry: { baseDelayMs: 1 } });
      const { response } = await client.GET("/api/dispatch/index");
      assert.equal(response.status, 200);
      assert.equal(calls.length, 2);
    });

    it("does not retry with retry: false", async () => {
      const { calls, fetch } = scriptedFetch([status(429, { "retry-after": "0" }), () => Response.json({})]);
      const client = createDispatchClient({ baseUrl: "http://x.test", fetch, retry: false });
      const { response } = await client.GET("/api/dispatch/index");
      assert.equal(response.status, 429);
      assert.equal(calls.length, 1);
    });
  });
});
