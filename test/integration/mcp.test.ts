// The MCP endpoint driven by the SDK's own Client over Streamable HTTP, on every test database.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { loadResolvedContract, type JsonObject } from "../../scripts/contract.js";
import { confirmationPreviewSchema, confirmationTokenSchema } from "../../server/services/agents/ask-first.js";
import { oauthToken } from "../fixtures/orders.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";

const quoteArgs = { trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent" };
const orderArgs = {
  trade: "plumbing",
  location: { state: "TX", zip: "78701" },
  description: "Leaking water heater in the garage.",
};

async function connect(url: string, bearer?: string): Promise<Client> {
  const client = new Client({ name: "dispatch-test", version: "1.0.0" });
  const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers } }));
  return client;
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => assert.fail("expected a JSON-RPC error"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof McpError, String(error));
  return error;
}

const idSchema = {
  type: "string",
  minLength: 1,
  maxLength: 100,
  description: "Order id (`ord_…`; over MCP the handle `dispatch-ord_…` is accepted too).",
};

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

/** Calls a tool that asks before it acts: the preview's token, then the same call with it. */
async function confirmed(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const preview = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const token = (preview.structuredContent as { confirmation_token?: string } | undefined)?.confirmation_token;
  if (!token) return preview; // refused before the preview (scope, validation, not found)
  return (await client.callTool({ name, arguments: { ...args, confirmation_token: token } })) as CallToolResult;
}

/** A confirming tool's schemas: the operation's input with confirmation_token, its output or the preview. */
const confirming = ([input, output]: [unknown, unknown]): [unknown, unknown] => [
  {
    ...(input as object),
    properties: { ...(input as { properties: object }).properties, confirmation_token: confirmationTokenSchema },
  },
  { type: "object", anyOf: [output, confirmationPreviewSchema] },
];

for (const db of databases()) {
  describe(`MCP endpoint (${db.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db);
      key = (await t.issueKey({ account: "mcp-acct" })).key;
    });
    after(() => t?.stop());

    it("initializes statelessly and lists the nine tools with the contract's schemas and all four hints", async () => {
      const client = await connect(t.url);
      assert.equal(client.getServerVersion()?.name, "dispatch");
      const { tools } = await client.listTools();
      const doc = await loadResolvedContract();
      const schema = (name: string) => (doc.components as { schemas: JsonObject }).schemas[name];
      const evalsPeriod = (doc.paths as JsonObject)["/api/dispatch/analytics/evals"] as {
        get: { parameters: [{ schema: JsonObject }] };
      };
      const revisionParam = (doc.components as { parameters: Record<string, JsonObject> }).parameters.PriceRevisionId;
      const revisionInput = {
        type: "object",
        properties: {
          id: idSchema,
          revision_id: { ...(revisionParam.schema as JsonObject), description: revisionParam.description },
        },
        required: ["id", "revision_id"],
        additionalProperties: false,
      };
      const expected: Record<string, [unknown, unknown]> = {
        "dispatch.quote": [schema("QuoteRequest"), schema("Quote")],
        "dispatch.order": confirming([
          schema("OrderRequest"),
          { type: "object", oneOf: [schema("OrderCreated"), schema("OrderAccepted")] },
        ]),
        "dispatch.evals": [
          {
            type: "object",
            properties: {
              period: {
                ...evalsPeriod.get.parameters[0].schema,
                description: "Rolling window. An unknown value is refused with 422.",
              },
            },
            additionalProperties: false,
          },
          schema("Evals"),
        ],
        "dispatch.index": [{ type: "object", properties: {}, additionalProperties: false }, schema("TradeIndex")],
        "dispatch.order_status": [
          { type: "object", properties: { id: idSchema }, additionalProperties: false, required: ["id"] },
          schema("OrderStatus"),
        ],
        "dispatch.cancel_order": confirming([
          {
            ...(schema("CancelRequest") as object),
            properties: { id: idSchema, ...(schema("CancelRequest") as { properties: object }).properties },
            required: ["id", ...(schema("CancelRequest") as { required: string[] }).required],
          },
          schema("OrderStatus"),
        ]),
        "dispatch.reschedule_order": [
          {
            ...(schema("RescheduleRequest") as object),
            properties: { id: idSchema, ...(schema("RescheduleRequest") as { properties: object }).properties },
            required: ["id", ...(schema("RescheduleRequest") as { required: string[] }).required],
          },
          schema("OrderStatus"),
        ],
        "dispatch.approve_price_revision": confirming([revisionInput, schema("OrderStatus")]),
        "dispatch.decline_price_revision": [revisionInput, schema("OrderStatus")],
      };
      assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(expected).sort());
      for (const tool of tools)
        assert.deepEqual(
          [tool.inputSchema, tool.outputSchema],
          expected[tool.name],
          `${tool.name} drifted from openapi.yaml`,
        );
      assert.match(tools.find((tool) => tool.name === "dispatch.order")!.description!, /-32002.*resources\/read/s);
      for (const tool of tools)
        for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const)
          assert.equal(typeof tool.annotations?.[hint], "boolean", `${tool.name} ${hint}`);
      const hints = (name: string) => tools.find((tool) => tool.name === name)!.annotations!;
      assert.equal(hints("dispatch.order_status").readOnlyHint, true);
      assert.equal(hints("dispatch.cancel_order").destructiveHint, true);
      assert.equal(hints("dispatch.cancel_order").idempotentHint, true);
      assert.deepEqual(
        // it frees the old window's seat, which another order may take: not an additive change
        [hints("dispatch.reschedule_order").readOnlyHint, hints("dispatch.reschedule_order").destructiveHint],
        [false, true],
      );
      assert.equal(hints("dispatch.reschedule_order").idempotentHint, true);
      for (const name of ["dispatch.approve_price_revision", "dispatch.decline_price_revision"])
        assert.deepEqual(
          [hints(name).readOnlyHint, hints(name).destructiveHint, hints(name).idempotentHint],
          [false, false, false],
        );
      await client.close();
    });

    it("reads, reschedules and cancels the key's own order with order_status, reschedule_order and cancel_order; another account's is not found", async () => {
      const client = await connect(t.url, key);
      const created = await confirmed(client, "dispatch.order", orderArgs);
      const handle = (created.structuredContent as { order: { id: string } }).order.id;
      const status = (await client.callTool({
        name: "dispatch.order_status",
        arguments: { id: handle },
      })) as CallToolResult;
      assert.equal((status.structuredContent as { id: string }).id, handle.replace(/^dispatch-/, ""));
      // the window it has: reschedule_order's idempotent answer, the order as it is
      const { arrival_window } = status.structuredContent as { arrival_window: { start: string; end: string } };
      const kept = (await client.callTool({
        name: "dispatch.reschedule_order",
        arguments: { id: handle, arrival_window },
      })) as CallToolResult;
      assert.notEqual(kept.isError, true, text(kept));
      assert.deepEqual((kept.structuredContent as { arrival_window: unknown }).arrival_window, arrival_window);
      const other = await connect(t.url, (await t.issueKey({ account: "mcp-other" })).key);
      for (const [name, args] of [
        ["dispatch.order_status", { id: handle }],
        ["dispatch.cancel_order", { id: handle, reason: "duplicate" }],
        ["dispatch.reschedule_order", { id: handle, arrival_window }],
      ] as const) {
        const result = (await other.callTool({ name, arguments: args })) as CallToolResult;
        assert.equal(result.isError, true, name);
        assert.equal((JSON.parse(text(result)) as { code: string }).code, "not_found", name);
      }
      for (let i = 0; i < 2; i++) {
        const cancelled = await confirmed(client, "dispatch.cancel_order", {
          id: handle,
          reason: "duplicate",
          note: "placed twice",
        });
        const order = cancelled.structuredContent as { status: string; cancellation: { by: string; reason: string } };
        assert.equal(order.status, "cancelled");
        assert.deepEqual([order.cancellation.by, order.cancellation.reason], ["customer", "duplicate"]);
      }
      const bad = (await client.callTool({
        name: "dispatch.cancel_order",
        arguments: { id: handle },
      })) as CallToolResult;
      assert.equal((JSON.parse(text(bad)) as { code: string }).code, "validation_failed");
      await Promise.all([client.close(), other.close()]);
    });

    it("declines the key's own order's price revision with decline_price_revision; another account's is not found", async () => {
      const client = await connect(t.url, key);
      const held = { ...orderArgs, nte_cents: 1 }; // any price is over it: held with a pending price revision
      const created = await confirmed(client, "dispatch.order", held);
      const handle = (created.structuredContent as { order: { id: string } }).order.id;
      const status = (await client.callTool({
        name: "dispatch.order_status",
        arguments: { id: handle },
      })) as CallToolResult;
      const revision = (status.structuredContent as { price_revision: { id: string } }).price_revision.id;
      const other = await connect(t.url, (await t.issueKey({ account: "mcp-other" })).key);
      for (const name of ["dispatch.approve_price_revision", "dispatch.decline_price_revision"]) {
        const refused = (await other.callTool({
          name,
          arguments: { id: handle, revision_id: revision },
        })) as CallToolResult;
        assert.equal((JSON.parse(text(refused)) as { code: string }).code, "not_found", name);
      }
      const declined = (await client.callTool({
        name: "dispatch.decline_price_revision",
        arguments: { id: handle, revision_id: revision },
      })) as CallToolResult;
      assert.notEqual(declined.isError, true, text(declined));
      const order = declined.structuredContent as { nte_cents: number; price_revision: { status: string } };
      assert.deepEqual([order.nte_cents, order.price_revision.status], [1, "declined"]);
      const missing = (await client.callTool({
        name: "dispatch.decline_price_revision",
        arguments: { id: handle },
      })) as CallToolResult;
      assert.equal((JSON.parse(text(missing)) as { code: string }).code, "validation_failed");
      await Promise.all([client.close(), other.close()]);
    });

    it("checks each tool against its REST twin's scope: a quote-only key quotes, gets -32002 ordering, and is refused order_status and cancel_order", async () => {
      const client = await connect(t.url, (await t.issueKey({ account: "mcp-acct", scopes: ["quote"] })).key);
      const quoted = (await client.callTool({ name: "dispatch.quote", arguments: quoteArgs })) as CallToolResult;
      assert.notEqual(quoted.isError, true);
      assert.equal((await rejection(client.callTool({ name: "dispatch.order", arguments: orderArgs }))).code, -32002);
      for (const [name, args] of [
        ["dispatch.order_status", { id: "ord_x" }],
        ["dispatch.cancel_order", { id: "ord_x", reason: "duplicate" }],
        [
          "dispatch.reschedule_order",
          { id: "ord_x", arrival_window: { start: "2026-11-24T10:00:00-06:00", end: "2026-11-24T12:00:00-06:00" } },
        ],
        ["dispatch.approve_price_revision", { id: "ord_x", revision_id: "prv_x" }],
        ["dispatch.decline_price_revision", { id: "ord_x", revision_id: "prv_x" }],
      ] as const) {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        assert.equal(result.isError, true, name);
        assert.equal((JSON.parse(text(result)) as { code: string }).code, "insufficient_scope", name);
      }
      await client.close();
    });

    it("a test key's tools never see the same account's live orders", async () => {
      const liveKey = (await t.issueKey({ account: "mcp-acct", environment: "live" })).key;
      const live = await connect(t.url, liveKey);
      const created = await confirmed(live, "dispatch.order", orderArgs);
      const handle = (created.structuredContent as { order: { id: string } }).order.id;
      const sandbox = await connect(t.url, key);
      const result = (await sandbox.callTool({
        name: "dispatch.order_status",
        arguments: { id: handle },
      })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.equal((JSON.parse(text(result)) as { code: string }).code, "not_found");
      await Promise.all([live.close(), sandbox.close()]);
    });

    it("answers the public tools without a credential, with structuredContent and a text copy", async () => {
      const client = await connect(t.url);
      const index = (await client.callTool({ name: "dispatch.index", arguments: {} })) as CallToolResult;
      assert.equal((index.structuredContent as { trades: unknown[] }).trades.length, 8);
      assert.deepEqual(JSON.parse(text(index)), index.structuredContent);
      const evals = (await client.callTool({ name: "dispatch.evals", arguments: {} })) as CallToolResult;
      assert.equal((evals.structuredContent as { period: string }).period, "rolling_30d");
      const week = (await client.callTool({
        name: "dispatch.evals",
        arguments: { period: "rolling_7d" },
      })) as CallToolResult;
      assert.equal((week.structuredContent as { period: string }).period, "rolling_7d");
      const bad = (await client.callTool({
        name: "dispatch.evals",
        arguments: { period: "rolling_1y" },
      })) as CallToolResult;
      assert.equal(bad.isError, true);
      assert.match(
        (JSON.parse(text(bad)) as { message: string }).message,
        /\/period "period" must be one of \[rolling_7d/,
      );
      await client.close();
    });

    it("refuses keyed tools without a credential with a tool error naming the Bearer key", async () => {
      const client = await connect(t.url);
      for (const [name, args] of [
        ["dispatch.quote", quoteArgs],
        ["dispatch.order", orderArgs],
      ] as const) {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        assert.equal(result.isError, true);
        assert.match(text(result), /Authorization: Bearer <API_KEY>/);
        assert.equal(result.structuredContent, undefined);
      }
      await client.close();
    });

    it("quotes with a provisioned key as Bearer and with an OAuth access token", async () => {
      for (const bearer of [key, await oauthToken(t.url)]) {
        const client = await connect(t.url, bearer);
        const quote = (await client.callTool({ name: "dispatch.quote", arguments: quoteArgs })) as CallToolResult;
        assert.equal(quote.isError, undefined);
        assert.match((quote.structuredContent as { quote_id: string }).quote_id, /^qt_/);
        const invalid = (await client.callTool({
          name: "dispatch.quote",
          arguments: { ...quoteArgs, nte_cents: 0 },
        })) as CallToolResult;
        assert.equal(invalid.isError, true);
        assert.match(text(invalid), /\/nte_cents/);
        await client.close();
      }
    });

    it("orders with an entitled key: handle dispatch-{id}, 201 and 202 shapes", async () => {
      const client = await connect(t.url, key);
      const created = await confirmed(client, "dispatch.order", orderArgs);
      const body = created.structuredContent as {
        fulfilled: boolean;
        order: { id: string; status: string; assigned_contractor_ref: string };
        tracking: { status_url: string };
      };
      assert.equal(body.fulfilled, true);
      assert.match(body.order.id, /^dispatch-ord_/);
      assert.equal(body.order.status, "pending_dispatch");
      assert.match(body.order.assigned_contractor_ref, /\*\*\*\*/);
      assert.ok(
        body.tracking.status_url.endsWith(`/api/dispatch/v1/orders/${body.order.id.slice("dispatch-".length)}`),
      );
      const status = await fetch(body.tracking.status_url, { headers: { "x-api-key": key } });
      assert.equal(status.status, 200);
      const accepted = await confirmed(client, "dispatch.order", { ...orderArgs, location: { state: "AK" } });
      const pending = accepted.structuredContent as {
        fulfilled: boolean;
        order: { status: string };
        fulfilment: { assigned: boolean };
      };
      assert.deepEqual(
        [pending.fulfilled, pending.order.status, pending.fulfilment.assigned],
        [false, "accepted_pending_fulfilment", false],
      );
      await client.close();
    });

    it("answers JSON-RPC -32002 with the entitlement body to an OAuth token and to a quote-only key", async () => {
      const quoteOnly = (await t.issueKey({ account: "mcp-acct", scopes: ["quote"] })).key;
      for (const bearer of [await oauthToken(t.url), quoteOnly]) {
        const client = await connect(t.url, bearer);
        const error = await rejection(client.callTool({ name: "dispatch.order", arguments: orderArgs }));
        assert.equal(error.code, -32002, error.message);
        const data = error.data as Record<string, unknown>;
        assert.equal(data.error, "payment_required");
        assert.equal(data.provisioning_contact, "provisioning@dispatch.example");
        assert.ok(
          Array.isArray(data.free_alternatives) &&
            typeof data.entitled_credential === "string" &&
            typeof data.message === "string",
        );
        await client.close();
      }
    });

    it("answers an invalid or revoked Bearer with 401 and an RFC 9728 resource_metadata challenge", async () => {
      const issued = await t.issueKey({ account: "mcp-acct" });
      await fetch(`${t.url}/api/admin/v1/keys/${issued.id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${adminToken}` },
      });
      for (const bearer of ["dat_unknown", issued.key]) {
        const response = await fetch(`${t.url}/api/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${bearer}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        assert.equal(response.status, 401);
        assert.equal(response.headers.get("content-type"), "application/problem+json");
        assert.match(
          response.headers.get("www-authenticate")!,
          new RegExp(
            `^Bearer .*error="invalid_token".*resource_metadata="${t.url}/\\.well-known/oauth-protected-resource/api/mcp"`,
          ),
        );
      }
      await assert.rejects(connect(t.url, "dat_unknown"));
    });

    it("answers malformed JSON with a JSON-RPC parse error", async () => {
      const response = await fetch(`${t.url}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: "{nope",
      });
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, message: "Parse error: Invalid JSON" },
      });
    });
  });
}
