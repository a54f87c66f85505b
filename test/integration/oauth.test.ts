// Self-serve OAuth end to end (RFC 7591 registration, RFC 6749 client credentials) and what the token may do.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { sha256Hex } from "../../server/services/shared/ids.js";
import { quoteRequest } from "../fixtures/requests.js";
import { databases, type TestServer } from "../helpers/server.js";

const orderRequest = {
  trade: "plumbing",
  location: { state: "TX", zip: "78701" },
  description: "Water heater leaking.",
};

async function register(url: string, body: unknown = { client_name: "oauth-test" }) {
  return fetch(`${url}/api/mcp/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function token(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${url}/api/mcp/oauth/token`, { method: "POST", headers, body: new URLSearchParams(form) });
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

async function assertOAuthError(response: Response, status: number, error: string) {
  assert.equal(response.status, status);
  assert.equal(response.headers.get("cache-control"), "no-store");
  const body = await response.json();
  assert.equal(body.error, error, JSON.stringify(body));
  assert.equal(typeof body.error_description, "string");
}

for (const db of databases()) {
  describe(`OAuth client credentials (${db.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let client: { client_id: string; client_secret: string };
    before(async () => {
      // Loaded through ESM as in production: mocha's require (tsx CJS) would give the server a second copy of
      // services/errors.ts beside the one the dynamically imported route modules throw (OAuthError -> 500).
      const { startTestServer } = await import("../helpers/server.js");
      t = await startTestServer(db, { OAUTH_TOKEN_TTL_SECONDS: "600" });
      const response = await register(t.url);
      assert.equal(response.status, 201);
      assert.equal(response.headers.get("cache-control"), "no-store");
      const registered = await response.json();
      client = { client_id: registered.client_id, client_secret: registered.client_secret };
    });
    after(() => t?.stop());

    it("registers, issues tokens with Basic and with body credentials, and the token quotes but cannot order", async () => {
      const viaBasic = await token(
        t.url,
        { grant_type: "client_credentials" },
        { authorization: basic(client.client_id, client.client_secret) },
      );
      assert.equal(viaBasic.status, 200);
      assert.equal(viaBasic.headers.get("cache-control"), "no-store");
      const issued = await viaBasic.json();
      assert.deepEqual([issued.token_type, issued.expires_in, issued.scope], ["Bearer", 600, "dispatch.quote"]);
      const viaBody = await (
        await token(t.url, { grant_type: "client_credentials", scope: "dispatch.quote", ...client })
      ).json();
      assert.match(viaBody.access_token, /^dat_/);

      const bearer = { authorization: `Bearer ${issued.access_token}`, "content-type": "application/json" };
      assert.equal(
        (
          await fetch(`${t.url}/api/dispatch/v1/quote`, {
            method: "POST",
            headers: bearer,
            body: JSON.stringify(quoteRequest),
          })
        ).status,
        200,
      );
      const order = await fetch(`${t.url}/api/dispatch/v1/order`, {
        method: "POST",
        headers: bearer,
        body: JSON.stringify(orderRequest),
      });
      assert.equal(order.status, 402);
      assert.equal((await order.json()).error, "payment_required");

      const mcp = new Client({ name: "oauth-test", version: "1.0.0" });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), {
          requestInit: { headers: { authorization: bearer.authorization } },
        }),
      );
      const refused = await mcp.callTool({ name: "dispatch.order", arguments: orderRequest }).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(refused instanceof McpError);
      assert.deepEqual([refused.code, (refused.data as { error: string }).error], [-32002, "payment_required"]);
      await mcp.close();
    });

    it("stores only hashes of secrets and tokens, and refuses an expired token", async () => {
      const issued = await (await token(t.url, { grant_type: "client_credentials", ...client })).json();
      const db = t.app.services.db;
      assert.equal(await db("oauth_tokens").where({ token_hash: issued.access_token }).first(), undefined);
      const row = await db("oauth_tokens")
        .where({ token_hash: sha256Hex(issued.access_token) })
        .first();
      assert.ok(row, "the token is stored as its SHA-256");
      const stored = await db("oauth_clients").where({ client_id: client.client_id }).first();
      assert.equal(stored?.secret_hash, sha256Hex(client.client_secret));
      const quote = () =>
        fetch(`${t.url}/api/dispatch/v1/quote`, {
          method: "POST",
          headers: { authorization: `Bearer ${issued.access_token}`, "content-type": "application/json" },
          body: JSON.stringify(quoteRequest),
        });
      assert.equal((await quote()).status, 200);
      await db("oauth_tokens")
        .where({ token_hash: row.token_hash })
        .update({ expires_at: new Date(Date.now() - 1000) });
      assert.equal((await quote()).status, 401);
    });

    it("answers RFC 6749 §5.2 errors with no-store", async () => {
      await assertOAuthError(
        await token(t.url, { client_id: client.client_id, client_secret: client.client_secret }),
        400,
        "invalid_request",
      );
      await assertOAuthError(await token(t.url, { grant_type: "password", ...client }), 400, "unsupported_grant_type");
      await assertOAuthError(
        await token(t.url, { grant_type: "client_credentials", scope: "dispatch.order", ...client }),
        400,
        "invalid_scope",
      );
      const bothMethods = await token(
        t.url,
        { grant_type: "client_credentials", ...client },
        { authorization: basic(client.client_id, client.client_secret) },
      );
      await assertOAuthError(bothMethods, 400, "invalid_request");
      const json = await fetch(`${t.url}/api/mcp/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "client_credentials", ...client }),
      });
      await assertOAuthError(json, 400, "invalid_request");
      for (const wrong of [
        await token(t.url, {
          grant_type: "client_credentials",
          client_id: client.client_id,
          client_secret: "dcs_wrong",
        }),
        await token(t.url, { grant_type: "client_credentials" }),
        await token(t.url, { grant_type: "client_credentials" }, { authorization: basic("dcl_nobody", "x") }),
      ]) {
        assert.match(wrong.headers.get("www-authenticate") ?? "", /^Basic realm=/);
        await assertOAuthError(wrong, 401, "invalid_client");
      }
      await assertOAuthError(
        await register(t.url, { grant_types: ["authorization_code"] }),
        400,
        "invalid_client_metadata",
      );
    });
  });
}
