// HTTP-level protocol details every client meets before any business logic: methods, media types, sizes, origins.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { startTestServer, type TestServer } from "../helpers/server.js";

const quote = { trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent" };
const oversized = JSON.stringify({ description: "x".repeat(70_000) });

async function problemOf(response: Response) {
  assert.match(response.headers.get("content-type") ?? "", /^application\/problem\+json/);
  return (await response.json()) as { status: number; code: string; detail?: string };
}

/** Sends raw bytes (malformed HTTP the fetch API cannot produce) and returns the whole answer. */
function rawRequest(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
    socket.on("end", () => {
      resolve(answer);
    });
    socket.on("error", reject);
  });
}

describe("protocol details", function () {
  this.timeout(60_000);
  let t: TestServer;
  let key: string;
  before(async () => {
    t = await startTestServer(undefined, { MCP_ALLOWED_ORIGINS: "https://agent.example" });
    key = (await t.issueKey({ account: "protocol-acct" })).key;
  });
  after(() => t?.stop());

  describe("wrong method", () => {
    const cases: [string, string, string][] = [
      ["GET", "/api/mcp", "POST"],
      ["DELETE", "/api/mcp", "POST"],
      ["PUT", "/api/dispatch/v1/quote", "POST"],
      ["POST", "/healthz", "GET, HEAD"],
      ["DELETE", "/api/admin/v1/keys", "GET, HEAD, POST"],
    ];
    for (const [method, path, allow] of cases) {
      it(`returns 405 with Allow: ${allow} for ${method} ${path}`, async () => {
        const response = await fetch(`${t.url}${path}`, { method });
        assert.equal(response.status, 405);
        assert.equal(response.headers.get("allow"), allow);
        const body = await problemOf(response);
        assert.equal(body.code, "method_not_allowed");
      });
    }
    it("still returns 404 for a path no route has", async () => {
      const response = await fetch(`${t.url}/api/nothing-here`, { method: "POST" });
      assert.equal(response.status, 404);
      assert.equal(response.headers.get("allow"), null);
    });
  });

  describe("request bodies", () => {
    for (const body of ["[1,2]", '"text"', "42", "null"]) {
      it(`returns 400 problem for the non-object JSON body ${body}`, async () => {
        const response = await fetch(`${t.url}/api/dispatch/v1/estimate`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        assert.equal(response.status, 400);
        const problem = await problemOf(response);
        assert.equal(problem.code, "malformed_body");
        assert.match(problem.detail ?? "", /JSON object/);
      });
    }
    it("parses a JSON body sent as text/plain (fetch's default for a string body)", async () => {
      const response = await fetch(`${t.url}/api/dispatch/v1/estimate`, {
        method: "POST",
        body: JSON.stringify(quote),
      });
      assert.equal(response.status, 200, await response.clone().text());
    });
    it("returns 415 problem naming the type to send for other media types", async () => {
      const response = await fetch(`${t.url}/api/dispatch/v1/estimate`, {
        method: "POST",
        headers: { "content-type": "application/xml" },
        body: "<quote/>",
      });
      assert.equal(response.status, 415);
      assert.match((await problemOf(response)).detail ?? "", /application\/json/);
    });
    it("returns 400 problem with a body for malformed JSON", async () => {
      const response = await fetch(`${t.url}/api/dispatch/v1/estimate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{",
      });
      assert.equal(response.status, 400);
      assert.equal((await problemOf(response)).code, "malformed_body");
    });
    const endpoints = [
      "/api/dispatch/v1/quote",
      "/api/dispatch/v1/estimate",
      "/api/mcp",
      "/api/a2a",
      "/api/mcp/oauth/register",
      "/api/mcp/oauth/token",
      "/api/agentic-commerce/probe",
    ];
    for (const path of endpoints) {
      it(`returns 413 problem for a body over 64 KiB on ${path}`, async () => {
        const form = path.endsWith("/token");
        const response = await fetch(`${t.url}${path}`, {
          method: "POST",
          headers: {
            "content-type": form ? "application/x-www-form-urlencoded" : "application/json",
            "x-api-key": key,
          },
          body: form ? `grant_type=${"x".repeat(70_000)}` : oversized,
        });
        assert.equal(response.status, 413);
        assert.equal((await problemOf(response)).code, "payload_too_large");
      });
    }
  });

  describe("parser-level errors", () => {
    it("answers a malformed request line with a problem+json body", async () => {
      const answer = await rawRequest(t.url, "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n");
      assert.match(answer, /^HTTP\/1\.1 400/);
      assert.match(answer, /content-type: application\/problem\+json/i);
      assert.match(answer, /"status":400/);
    });
  });

  describe("MCP Origin check", () => {
    const init = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const post = (origin?: string) =>
      fetch(`${t.url}/api/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(origin ? { origin } : {}),
        },
        body: JSON.stringify(init),
      });
    // each body is read: an unread answer (tools/list is tens of kilobytes) holds its connection open
    const status = async (origin?: string) => {
      const response = await post(origin);
      await response.text();
      return response.status;
    };
    it("accepts a request without Origin", async () => {
      assert.equal(await status(), 200);
    });
    it("accepts an allow-listed Origin", async () => {
      assert.equal(await status("https://agent.example"), 200);
    });
    it("returns 403 problem for any other Origin", async () => {
      const response = await post("https://evil.example");
      assert.equal(response.status, 403);
      assert.equal((await problemOf(response)).code, "origin_not_allowed");
    });
  });

  describe("RFC 7591 registration", () => {
    const register = (body: object) =>
      fetch(`${t.url}/api/mcp/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    it("accepts and echoes the standard metadata it supports, ignoring unknown members", async () => {
      const metadata = {
        client_name: "std-client",
        token_endpoint_auth_method: "client_secret_post",
        software_id: "4NRB1-0XZABZI9E6-5SM3R",
        software_version: "2.1.0",
        client_uri: "https://client.example",
        contacts: ["ops@client.example"],
      };
      const response = await register({ ...metadata, response_types: [], logo_uri: "https://x.example/l.png" });
      assert.equal(response.status, 201);
      const body = await response.json();
      for (const [name, value] of Object.entries(metadata)) assert.deepEqual(body[name], value, name);
      assert.equal(body.logo_uri, undefined);
    });
    it("still rejects metadata it cannot honour with invalid_client_metadata", async () => {
      const response = await register({ token_endpoint_auth_method: "private_key_jwt" });
      assert.equal(response.status, 400);
      assert.equal((await response.json()).error, "invalid_client_metadata");
    });
  });
});
