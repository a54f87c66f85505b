// Discovery documents (agent card, RFC 9728 metadata, capability index, the contract itself) and the agent
// surfaces' REST answers through the Prism validating proxy.
import assert from "node:assert/strict";
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { A2A_PROTOCOL_VERSION, AgentCard } from "@a2a-js/sdk";
import { parse } from "yaml";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import { capabilities } from "../../server/services/agents/capabilities.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

function gitHead(): string | null {
  try {
    return execSync("git rev-parse --short=12 HEAD", { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

describe("discovery documents", function () {
  this.timeout(30_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t?.stop());

  it("answers the root with where to start: the reference, the contract and the agents' guides, each served", async () => {
    const response = await fetch(`${t.url}/`);
    assert.equal(response.status, 200);
    const home = (await response.json()) as { message: string; guides?: string; links: Record<string, string> };
    assert.match(home.message, /^The API reference is at \/docs and this contract at \/openapi\.json;/);
    // the guides are in the repository, not served: the folder README.md links them from
    assert.equal(home.guides, "docs/");
    assert.match(home.message, /the guides are in docs\/ of the dispatch repository\.$/);
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    assert.ok(readme.includes(`](${home.guides}customers.md)`), "README links the guides in that folder");
    assert.deepEqual(
      [home.links.docs, home.links.openapi_json, home.links.capabilities, home.links.agent_card],
      ["/docs", "/openapi.json", "/api/capabilities", "/.well-known/agent-card.json"],
    );
    for (const [name, path] of Object.entries(home.links)) {
      if (name === "mcp" || name === "a2a") continue; // JSON-RPC over POST, answered in the suites of their own
      assert.equal((await fetch(t.url + path)).status, 200, `${name}: ${path}`);
    }
  });

  it("serves the same contract at /openapi.json and /openapi.yaml", async () => {
    const json = await (await fetch(`${t.url}/openapi.json`)).json();
    const yaml = parse(await (await fetch(`${t.url}/openapi.yaml`)).text());
    assert.deepEqual(json, yaml);
    assert.equal(json.info.version, "1.0.0");
  });

  it("publishes capability index schema_version 2 with generated_at and the git build hash", async () => {
    const index = await (await fetch(`${t.url}/api/capabilities`)).json();
    assert.equal(index.schema_version, 2);
    assert.ok(Math.abs(Date.parse(index.generated_at) - Date.now()) < 60_000);
    const head = gitHead();
    if (head) assert.equal(index.build_hash, head);
    else assert.match(index.build_hash, /^sha256:[0-9a-f]{16}$/);
    assert.deepEqual(
      index.capabilities.map((c: { id: string }) => c.id),
      capabilities.map((c) => c.id),
    );
  });

  it("publishes an A2A v1.0 agent card the SDK parses back unchanged", async () => {
    const json = await (await fetch(`${t.url}/.well-known/agent-card.json`)).json();
    const card = AgentCard.fromJSON(json);
    assert.deepEqual(AgentCard.toJSON(card), json);
    assert.deepEqual(
      card.supportedInterfaces.map((i) => [i.url, i.protocolBinding, i.protocolVersion]),
      [[`${t.url}/api/a2a`, "JSONRPC", A2A_PROTOCOL_VERSION]],
    );
    assert.deepEqual(
      card.skills.map((s) => s.id),
      capabilities.map((c) => c.id),
    );
    assert.deepEqual(Object.keys(json.securitySchemes).sort(), ["apiKey", "oauthToken"]);
    assert.equal(
      json.securitySchemes.oauthToken.oauth2SecurityScheme.flows.clientCredentials.tokenUrl,
      `${t.url}/api/mcp/oauth/token`,
    );
  });

  for (const path of ["", "/api/mcp"]) {
    it(`publishes RFC 9728 metadata whose resource is exactly ${path || "the root"} (§3.3)`, async () => {
      assert.deepEqual(await (await fetch(`${t.url}/.well-known/oauth-protected-resource${path}`)).json(), {
        resource: `${t.url}${path}`,
        authorization_servers: [t.url],
        bearer_methods_supported: ["header"],
        scopes_supported: ["dispatch.quote"],
        resource_documentation: `${t.url}/openapi.json`,
      });
    });
  }

  it("lets an agent discover the token flow: RFC 9728 -> RFC 8414 -> register -> token", async () => {
    const resource = await (await fetch(`${t.url}/.well-known/oauth-protected-resource`)).json();
    const server = await (
      await fetch(`${resource.authorization_servers[0]}/.well-known/oauth-authorization-server`)
    ).json();
    assert.equal(server.issuer, resource.authorization_servers[0]);
    const client = await (
      await fetch(server.registration_endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).json();
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64");
    const token = await fetch(server.token_endpoint, {
      method: "POST",
      headers: { authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
    assert.equal(token.status, 200);
    assert.deepEqual(server.scopes_supported, [(await token.json()).scope]);
  });

  it("uses PUBLIC_BASE_URL for absolute URLs when set", async () => {
    const other = await startTestServer(undefined, { PUBLIC_BASE_URL: "https://dispatch.example" });
    const card = await (await fetch(`${other.url}/.well-known/agent-card.json`)).json();
    const metadata = await (await fetch(`${other.url}/.well-known/oauth-protected-resource/api/mcp`)).json();
    await other.stop();
    assert.equal(card.supportedInterfaces[0].url, "https://dispatch.example/api/a2a");
    assert.equal(metadata.resource, "https://dispatch.example/api/mcp");
  });
});

describe("agent surfaces through the Prism validating proxy", function () {
  this.timeout(120_000);
  let t: TestServer;
  let prism: PrismHandle;
  before(async () => {
    t = await startTestServer();
    prism = await startPrism({ mode: "proxy", upstream: t.url });
  });
  after(async () => {
    await prism?.stop();
    await t?.stop();
  });

  async function conforms(path: string, status: number, init: RequestInit = {}) {
    const response = await fetch(`${prism.url}${path}`, init);
    assert.equal(response.headers.get("sl-violations"), null, `${path}: ${response.headers.get("sl-violations")}`);
    assert.equal(response.status, status, `${path}: ${await response.clone().text()}`);
    return response.json();
  }
  const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const form = (body: Record<string, string>): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  });
  const mcpAccept = { accept: "application/json, text/event-stream" };

  it("agent card, protected resource metadata and capability index", async () => {
    await conforms("/.well-known/agent-card.json", 200);
    await conforms("/.well-known/oauth-protected-resource", 200);
    await conforms("/.well-known/oauth-authorization-server", 200);
    await conforms("/api/capabilities", 200);
  });

  it("OAuth register and token, including error bodies", async () => {
    const client = await conforms(
      "/api/mcp/oauth/register",
      201,
      json({ client_name: "prism", grant_types: ["client_credentials"], scope: "dispatch.quote" }),
    );
    const creds = { client_id: client.client_id, client_secret: client.client_secret };
    await conforms("/api/mcp/oauth/token", 200, form({ grant_type: "client_credentials", ...creds }));
    await conforms("/api/mcp/oauth/token", 400, form({ grant_type: "client_credentials", scope: "admin", ...creds }));
    await conforms(
      "/api/mcp/oauth/token",
      401,
      form({ grant_type: "client_credentials", client_id: client.client_id, client_secret: "dcs_wrong" }),
    );
    await conforms("/api/mcp/oauth/register", 400, json({ scope: "dispatch.order" }));
  });

  it("MCP and A2A JSON-RPC answers and the MCP 401", async () => {
    await conforms("/api/mcp", 200, json({ jsonrpc: "2.0", id: 1, method: "tools/list" }, mcpAccept));
    await conforms(
      "/api/mcp",
      401,
      json({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { ...mcpAccept, authorization: "Bearer dat_unknown" }),
    );
    const message = {
      messageId: "9f2c1a52-5b7e-4c43-9a1e-2f6d0b8c4e11",
      role: "ROLE_USER",
      parts: [{ data: { skill: "dispatch.index", input: {} } }],
    };
    const answer = await conforms(
      "/api/a2a",
      200,
      json({ jsonrpc: "2.0", id: 7, method: "SendMessage", params: { message } }, { "a2a-version": "1.0" }),
    );
    assert.equal(answer.result.task.status.state, "TASK_STATE_COMPLETED");
  });
});
