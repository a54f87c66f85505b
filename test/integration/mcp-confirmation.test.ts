// Tools that spend money or cancel work ask before they act (x-mcp-confirm): over the MCP SDK client, a call
// without a token changes nothing (the order, its events, the account's orders) and answers a preview with a token;
// the same call with the token acts once; a token reused, expired, sent with other arguments or by another key is
// refused and nothing is done. On every test database.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

const orderArgs = {
  trade: "plumbing",
  location: { state: "TX", zip: "78701" },
  description: "Leaking water heater in the garage.",
};

interface Preview {
  confirmation_required: true;
  capability: string;
  action: string;
  arguments: Record<string, unknown>;
  order?: { id: string; status: string };
  confirmation_token: string;
  expires_at: string;
  message: string;
}

async function connect(url: string, bearer: string): Promise<Client> {
  const client = new Client({ name: "confirm-test", version: "1.0.0" });
  const headers = { authorization: `Bearer ${bearer}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers } }));
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const errorOf = (result: CallToolResult) => {
  assert.equal(result.isError, true, JSON.stringify(result));
  return JSON.parse((result.content[0] as { text: string }).text) as { code: string; message: string };
};

for (const db of databases()) {
  describe(`MCP tools that ask before they act (${db.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let key: string;
    let client: Client;
    before(async () => {
      t = await startTestServer(db);
      key = (await t.issueKey({ account: "confirm-acct" })).key;
      client = await connect(t.url, key);
    });
    after(async () => {
      await client?.close();
      await t?.stop();
    });

    const rest = async (path: string) => {
      const response = await fetch(`${t.url}/api/dispatch/v1${path}`, { headers: { "x-api-key": key } });
      assert.equal(response.status, 200, path);
      return (await response.json()) as Record<string, unknown>;
    };
    const orderCount = async () => ((await rest("/orders?limit=200")).items as unknown[]).length;
    const eventTypes = async (id: string) =>
      ((await rest(`/orders/${id}/events`)).items as { type: string }[]).map((event) => event.type);

    /** A new order of the key's, placed over MCP with its confirmation. */
    async function placeOrder(): Promise<string> {
      const preview = (await call(client, "dispatch.order", orderArgs)).structuredContent as unknown as Preview;
      const placed = await call(client, "dispatch.order", {
        ...orderArgs,
        confirmation_token: preview.confirmation_token,
      });
      return (placed.structuredContent as { order: { id: string } }).order.id.replace(/^dispatch-/, "");
    }

    it("dispatch.order without a token places nothing and previews the order; with the token it places one", async () => {
      const before = await orderCount();
      const quotes = async () => (await t.app.services.db("quotes").count({ n: "*" }))[0].n;
      const quotesBefore = await quotes();
      const first = await call(client, "dispatch.order", orderArgs);
      assert.notEqual(first.isError, true);
      const preview = first.structuredContent as unknown as Preview;
      assert.equal(preview.confirmation_required, true);
      assert.equal(preview.capability, "dispatch.order");
      assert.deepEqual(preview.arguments, { ...orderArgs, urgency: "routine" }, "the arguments as they will be used");
      assert.match(preview.confirmation_token, /^dcf_[0-9A-Za-z]{32}$/);
      assert.ok(Date.parse(preview.expires_at) > Date.now() - 1000);
      assert.equal(await orderCount(), before, "a preview placed an order");
      // the price it would be matched at now, read only: no quote stored
      const estimate = (preview as Preview & { estimate: { available: boolean; estimated_cost_cents: number } })
        .estimate;
      assert.equal(estimate.available, true);
      assert.ok(Number.isInteger(estimate.estimated_cost_cents) && estimate.estimated_cost_cents > 0);
      assert.equal(await quotes(), quotesBefore, "a preview stored a quote");
      const placed = await call(client, "dispatch.order", {
        ...orderArgs,
        confirmation_token: preview.confirmation_token,
      });
      assert.match((placed.structuredContent as { order: { id: string } }).order.id, /^dispatch-ord_/);
      assert.equal(await orderCount(), before + 1);
      // the same token again: refused, no second order
      const again = await call(client, "dispatch.order", {
        ...orderArgs,
        confirmation_token: preview.confirmation_token,
      });
      assert.deepEqual(
        [errorOf(again).code, errorOf(again).message.includes("already used")],
        ["confirmation_invalid", true],
      );
      assert.equal(await orderCount(), before + 1);
    });

    it("dispatch.cancel_order without a token leaves the order and its events as they were; with it, cancels", async () => {
      const id = await placeOrder();
      const [order, events] = [await rest(`/orders/${id}`), await eventTypes(id)];
      const args = { id, reason: "duplicate" };
      const preview = (await call(client, "dispatch.cancel_order", args)).structuredContent as unknown as Preview;
      assert.equal(preview.confirmation_required, true);
      assert.deepEqual(preview.arguments, args);
      assert.deepEqual([preview.order?.id, preview.order?.status], [id, order.status]);
      assert.deepEqual(await rest(`/orders/${id}`), order, "the preview changed the order");
      assert.deepEqual(await eventTypes(id), events, "the preview added events");
      const done = await call(client, "dispatch.cancel_order", {
        ...args,
        confirmation_token: preview.confirmation_token,
      });
      assert.equal((done.structuredContent as { status: string }).status, "cancelled");
      assert.equal((await rest(`/orders/${id}`)).status, "cancelled");
      assert.ok((await eventTypes(id)).includes("order.cancelled"));
    });

    it("refuses a token for other arguments, from another key, expired, or unknown, and does nothing", async () => {
      const id = await placeOrder();
      const order = await rest(`/orders/${id}`);
      const events = await eventTypes(id);
      const args = { id, reason: "duplicate" };
      const tokenFor = async (as: Client) =>
        ((await call(as, "dispatch.cancel_order", args)).structuredContent as unknown as Preview).confirmation_token;

      const token = await tokenFor(client);
      const otherArgs = await call(client, "dispatch.cancel_order", {
        ...args,
        reason: "other",
        confirmation_token: token,
      });
      assert.equal(errorOf(otherArgs).code, "confirmation_invalid");
      assert.match(errorOf(otherArgs).message, /another tool or other arguments/);
      const otherTool = await call(client, "dispatch.order", { ...orderArgs, confirmation_token: token });
      assert.equal(errorOf(otherTool).code, "confirmation_invalid");

      // another key of the same account: the token reads as unknown to it
      const sibling = await connect(t.url, (await t.issueKey({ account: "confirm-acct" })).key);
      const stolen = await call(sibling, "dispatch.cancel_order", { ...args, confirmation_token: token });
      assert.equal(errorOf(stolen).code, "confirmation_invalid");
      assert.match(errorOf(stolen).message, /unknown to this key/);
      await sibling.close();

      // expired: its row's expiry moved into the past (no waiting on the clock)
      await t.app.services.db("agent_confirmations").update({ expires_at: new Date(Date.now() - 60_000) });
      const expired = await call(client, "dispatch.cancel_order", { ...args, confirmation_token: token });
      assert.match(errorOf(expired).message, /expired/);
      const unknown = await call(client, "dispatch.cancel_order", { ...args, confirmation_token: "dcf_nope" });
      assert.match(errorOf(unknown).message, /unknown to this key/);
      const malformed = await call(client, "dispatch.cancel_order", { ...args, confirmation_token: 42 });
      assert.equal(errorOf(malformed).code, "validation_failed");

      assert.deepEqual(await rest(`/orders/${id}`), order, "a refused confirmation changed the order");
      assert.deepEqual(await eventTypes(id), events, "a refused confirmation added events");
      // a fresh preview still confirms
      const fresh = await call(client, "dispatch.cancel_order", {
        ...args,
        confirmation_token: await tokenFor(client),
      });
      assert.equal((fresh.structuredContent as { status: string }).status, "cancelled");
    });

    it("previews another account's order as not found, with no token issued", async () => {
      const id = await placeOrder();
      const stranger = await connect(t.url, (await t.issueKey({ account: "confirm-other" })).key);
      const result = await call(stranger, "dispatch.cancel_order", { id, reason: "duplicate" });
      assert.equal(errorOf(result).code, "not_found");
      await stranger.close();
      assert.notEqual((await rest(`/orders/${id}`)).status, "cancelled");
    });

    it("keeps the tools that neither spend nor cancel acting at once", async () => {
      const id = await placeOrder();
      const status = await call(client, "dispatch.order_status", { id });
      assert.equal((status.structuredContent as { id: string }).id, id);
      const { tools } = await client.listTools();
      const asking = tools.filter((tool) => "confirmation_token" in (tool.inputSchema.properties ?? {}));
      assert.deepEqual(asking.map((tool) => tool.name).sort(), [
        "dispatch.approve_price_revision",
        "dispatch.cancel_order",
        "dispatch.order",
      ]);
      for (const tool of asking) assert.match(tool.description!, /Asks before it acts/);
    });
  });
}
