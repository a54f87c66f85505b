// `dispatch` against the real server (embedded PGlite in memory): keys, quote, order, status, OAuth, MCP.
import assert from "node:assert/strict";
import { adminToken, startTestServer, type TestServer } from "../helpers/server.js";
import { oneLine, runCli } from "./run-cli.js";

type Run = Awaited<ReturnType<typeof runCli>>;

/** Orders and MCP are still being built on the server: until their routes exist these tests are pending, not green. */
function skipUntilRouted(ctx: Mocha.Context, run: Run): void {
  if (run.code === 6 && /No route matches/.test(run.stderr)) ctx.skip();
}

describe("cli", function () {
  this.timeout(120_000);
  let t: TestServer;
  let key: string;
  const cli = async (args: string[], env: Record<string, string> = {}) => {
    const run = await runCli([...args, "--base-url", t.url], { env });
    return { ...run, json: () => JSON.parse(run.stdout) };
  };

  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  describe("e2e against the real server", () => {
    it("issues a key with admin keys create", async () => {
      const run = await cli(["admin", "keys", "create", "--account", "acme-cli", "--environment", "test", "--label", "cli e2e"], { DISPATCH_ADMIN_TOKEN: adminToken });
      assert.equal(run.code, 0, run.stderr);
      key = run.json().key;
      assert.match(key, /^dispatch_test_/);
    });

    it("reads the trade index", async () => {
      const run = await cli(["index"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.json().trades.length, 8);
    });

    it("quotes with the key", async () => {
      const run = await cli(["quote", "--trade", "plumbing", "--state", "TX", "--city", "Austin", "--urgency", "urgent", "--nte-cents", "90000"], { DISPATCH_API_KEY: key });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.json().trade, "plumbing");
      assert.equal(typeof run.json().estimated_cost_cents, "number");
    });

    it("orders and reads the order back with orders get", async function () {
      const order = await cli(["order", "--trade", "electrical", "--state", "CA", "--description", "Breaker trips.", "--reference-id", "cli-e2e-1"], { DISPATCH_API_KEY: key });
      skipUntilRouted(this, order);
      assert.equal(order.code, 0, order.stderr);
      const id = order.json().order.id as string;
      const status = await cli(["orders", "get", id], { DISPATCH_API_KEY: key });
      assert.equal(status.code, 0, status.stderr);
      assert.equal(status.json().id, id);
    });

    it("exits 4 without a key", async () => {
      const anonymous = await cli(["quote", "--trade", "hvac", "--state", "TX"]);
      assert.equal(anonymous.code, 4, anonymous.stderr);
      assert.ok(oneLine(anonymous.stderr));
    });

    it("exits 6 for an unknown order", async function () {
      const missing = await cli(["orders", "get", "ord_00000000000000000000000000"], { DISPATCH_API_KEY: key });
      skipUntilRouted(this, missing);
      assert.equal(missing.code, 6, missing.stderr);
      assert.ok(oneLine(missing.stderr));
    });

    it("registers an OAuth client, gets a token and quotes with it", async () => {
      const client = (await cli(["auth", "register", "--client-name", "cli-e2e"])).json();
      const token = await cli(["auth", "token", "--client-id", client.client_id, "--client-secret", client.client_secret]);
      assert.equal(token.code, 0, token.stderr);
      const quote = await cli(["quote", "--trade", "hvac", "--state", "FL", "--token", token.json().access_token]);
      assert.equal(quote.code, 0, quote.stderr);
    });

    it("lists MCP tools", async function () {
      const run = await cli(["mcp", "tools"], { DISPATCH_API_KEY: key });
      skipUntilRouted(this, run);
      assert.equal(run.code, 0, run.stderr);
      const names = (run.json().tools as Array<{ name: string }>).map((tool) => tool.name).sort();
      assert.deepEqual(names, ["dispatch.evals", "dispatch.index", "dispatch.order", "dispatch.quote"]);
    });

    it("calls the dispatch.index MCP tool", async function () {
      const run = await cli(["mcp", "call", "dispatch.index"], { DISPATCH_API_KEY: key });
      skipUntilRouted(this, run);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(Array.isArray(run.json().content));
    });
  });
});
