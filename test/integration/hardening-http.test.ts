// Issue 13 items 10, 11 and 13: stalled sockets are cut, a forged Host never shapes a URL, and every answer
// carries nosniff, no-store where secrets travel, and CORS only on public documents.
import assert from "node:assert/strict";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { loadConfig } from "../../server/config.js";
import { adminToken, startTestServer, type TestServer } from "../helpers/server.js";

/** GET with a chosen Host header (fetch refuses to set it). */
function getWithHost(
  url: string,
  host: string,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** A socket that sends `head` and then stalls; resolves when the server closes it. */
function stalled(port: number, head: string): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, "127.0.0.1", () => socket.write(head));
  let answer = "";
  socket.on("data", (c: Buffer) => (answer += c.toString()));
  socket.on("error", () => {});
  return {
    socket,
    closed: new Promise((resolve) =>
      socket.on("close", () => {
        resolve(answer);
      }),
    ),
  };
}

describe("hardening: HTTP", function () {
  this.timeout(60_000);
  let t: TestServer;
  let port: number;
  before(async () => {
    t = await startTestServer(undefined, { HTTP_REQUEST_TIMEOUT_MS: "1500" });
    port = Number(new URL(t.url).port);
  });
  after(() => t?.stop());

  describe("slow requests", () => {
    it("cuts a stalled body and stalled headers, and keeps serving under 300 such sockets", async () => {
      const body =
        "POST /api/dispatch/v1/quote HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{";
      const sockets = Array.from({ length: 300 }, (_, i) =>
        stalled(port, i % 2 ? body : "GET /healthz HTTP/1.1\r\nhost: x\r\n"),
      );
      assert.equal((await fetch(`${t.url}/healthz`)).status, 200);
      const answers = await Promise.all(sockets.map((s) => s.closed));
      // Every stalled socket was closed by the server (the suite's timeout bounds the wait), none hangs.
      assert.equal(answers.length, 300);
      assert.ok(answers.every((a) => !/^HTTP\/1\.1 [235]/.test(a)));
    });
  });

  describe("Host header", () => {
    it("never puts a forged Host into absolute URLs", async () => {
      for (const path of [
        "/.well-known/agent-card.json",
        "/.well-known/oauth-authorization-server",
        "/.well-known/oauth-protected-resource",
      ]) {
        const answer = await getWithHost(`${t.url}${path}`, "evil.example:666");
        assert.equal(answer.status, 200);
        assert.ok(!answer.body.includes("evil.example"), path);
        assert.ok(answer.body.includes(t.url), path);
      }
    });
    it("keeps a loopback Host on this server's port", async () => {
      const answer = await getWithHost(`${t.url}/.well-known/agent-card.json`, `localhost:${port}`);
      assert.ok(answer.body.includes(`http://localhost:${port}`));
    });
    it("refuses to start in production without PUBLIC_BASE_URL", () => {
      assert.throws(() => loadConfig({ NODE_ENV: "production" }), /PUBLIC_BASE_URL/);
    });
  });

  describe("headers", () => {
    it("sends nosniff everywhere, CORS on public documents only", async () => {
      const card = await fetch(`${t.url}/.well-known/agent-card.json`);
      assert.equal(card.headers.get("x-content-type-options"), "nosniff");
      assert.equal(card.headers.get("access-control-allow-origin"), "*");
      const keyed = await fetch(`${t.url}/api/dispatch/v1/quote`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      });
      assert.equal(keyed.status, 401);
      assert.equal(keyed.headers.get("x-content-type-options"), "nosniff");
      assert.equal(keyed.headers.get("access-control-allow-origin"), null);
    });
    it("sends no-store with keys, tokens and webhook secrets, and on keyed answers", async () => {
      const { key } = await t.issueKey({ account: "acme" });
      const admin = { authorization: `Bearer ${adminToken}` };
      const secret = await fetch(`${t.url}/api/admin/v1/accounts/acme/webhook-secret`, { headers: admin });
      const quote = await fetch(`${t.url}/api/dispatch/v1/quote`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify({ trade: "plumbing", location: { state: "TX" }, urgency: "urgent" }),
      });
      const register = await fetch(`${t.url}/api/mcp/oauth/register`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      });
      for (const response of [secret, quote, register]) assert.equal(response.headers.get("cache-control"), "no-store");
    });
  });
});
