// Issue 13 items 1-6: every surface pays for what it asks, probes keep their own policy, failed logins and
// self-serve registrations are throttled per client, health checks are exempt, proxies are explicit.
import assert from "node:assert/strict";
import { adminToken, startTestServer, type TestServer } from "../helpers/server.js";

const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const evalsCall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "dispatch.evals", arguments: {} },
});
const remaining = (response: Response) => Number(/r=(\d+)/.exec(response.headers.get("ratelimit") ?? "")?.[1]);

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const from = (client: string) => ({ "x-forwarded-for": `203.0.113.9, ${client}` });

const probeSkill = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "SendMessage",
  params: {
    message: {
      messageId: `m-${id}`,
      role: "ROLE_USER",
      parts: [{ data: { skill: "agentic.readiness_probe", input: { url: "http://169.254.169.254/" } } }],
    },
  },
});

describe("hardening: limits", function () {
  this.timeout(120_000);
  let t: TestServer;
  before(async () => {
    // Loopback is the trusted proxy here, so each case can play its own client through X-Forwarded-For.
    t = await startTestServer(undefined, { TRUSTED_PROXIES: "127.0.0.1, ::1" });
  });
  after(() => t?.stop());

  describe("MCP batches", () => {
    it("charges one point per message of a batch", async () => {
      const headers = { ...mcpHeaders, ...from("198.51.100.1") };
      const single = await postJson(`${t.url}/api/mcp`, evalsCall(1), headers);
      const batch = await postJson(`${t.url}/api/mcp`, [2, 3, 4, 5, 6].map(evalsCall), headers);
      assert.equal(batch.status, 200);
      assert.equal(remaining(single) - remaining(batch), 5);
    });

    it("refuses a batch of 100 tool calls without running any", async () => {
      const response = await postJson(
        `${t.url}/api/mcp`,
        Array.from({ length: 100 }, (_, i) => evalsCall(i)),
        {
          ...mcpHeaders,
          ...from("198.51.100.2"),
        },
      );
      assert.equal(response.status, 400);
      assert.match(((await response.json()) as { error: { message: string } }).error.message, /at most 20/);
    });
  });

  describe("probe policy across surfaces", () => {
    it("limits the A2A probe skill to the probe's 10 per minute, then 429 with Retry-After", async () => {
      const statuses: number[] = [];
      let limited: Response | undefined;
      for (let i = 0; i < 12; i++) {
        const response = await postJson(`${t.url}/api/a2a`, probeSkill(i), from("198.51.100.3"));
        statuses.push(response.status);
        if (response.status === 429) limited = response;
      }
      assert.deepEqual(statuses.slice(0, 10), Array(10).fill(200));
      assert.equal(statuses[10], 429);
      assert.ok(Number(limited!.headers.get("retry-after")) >= 1);
      // The same client is over the limit on REST too: one bucket per capability, whatever the surface.
      const rest = await postJson(
        `${t.url}/api/agentic-commerce/probe`,
        { url: "https://shop.example.com" },
        from("198.51.100.3"),
      );
      // Another client still has its own probe budget.
      const other = await postJson(`${t.url}/api/a2a`, probeSkill(99), from("198.51.100.4"));
      assert.equal(other.status, 200);
      assert.equal(rest.status, 429);
    });
  });

  describe("health checks and proxies", () => {
    it("never rate-limits /healthz and /readyz", async () => {
      const statuses = new Set<number>();
      const headers = from("198.51.100.5");
      for (let i = 0; i < 220; i++) statuses.add((await fetch(`${t.url}/healthz`, { headers })).status);
      statuses.add((await fetch(`${t.url}/readyz`, { headers })).status);
      assert.deepEqual([...statuses], [200]);
    });
  });

  describe("failed authentication", () => {
    it("answers 429 after 20 failures of one credential from one client, for keys, admin tokens and MCP bearers alike", async () => {
      const client = from("198.51.100.6");
      const tries = [
        () => postJson(`${t.url}/api/dispatch/v1/quote`, {}, { ...client, "x-api-key": "dispatch_test_wrong" }),
        () =>
          fetch(`${t.url}/api/admin/v1/keys`, { headers: { ...client, authorization: "Bearer not-the-admin-token" } }),
        () =>
          postJson(`${t.url}/api/mcp`, evalsCall(1), { ...mcpHeaders, ...client, authorization: "Bearer dat_nope" }),
      ];
      for (const attempt of tries) {
        const statuses: number[] = [];
        for (let i = 0; i < 22; i++) statuses.push((await attempt()).status);
        assert.deepEqual(statuses, [...Array(20).fill(401), 429, 429]);
      }
      const limited = await tries[1]();
      assert.ok(Number(limited.headers.get("retry-after")) >= 1);
      // The right admin token from the same client is another credential: its own budget is untouched.
      const right = await fetch(`${t.url}/api/admin/v1/keys`, {
        headers: { ...client, authorization: `Bearer ${adminToken}` },
      });
      assert.equal(right.status, 200);
    });
  });

  describe("self-serve OAuth", () => {
    it("limits registrations to 10 per hour per client", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await postJson(`${t.url}/api/mcp/oauth/register`, {}, from("198.51.100.8"))).status);
      assert.deepEqual(statuses, [...Array(10).fill(201), 429]);
    });
  });

  describe("Basic credentials", () => {
    for (const pair of ["a%ZZ:b", "a:%E0%A4%A", "%:%"])
      it(`answers 401 invalid_client for ${pair}`, async () => {
        const response = await fetch(`${t.url}/api/mcp/oauth/token`, {
          method: "POST",
          headers: {
            authorization: `Basic ${Buffer.from(pair).toString("base64")}`,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "grant_type=client_credentials",
        });
        assert.equal(response.status, 401);
        assert.equal(((await response.json()) as { error: string }).error, "invalid_client");
      });
  });
});
