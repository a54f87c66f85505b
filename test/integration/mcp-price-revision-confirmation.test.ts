// dispatch.approve_price_revision spends the customer's money (x-mcp-confirm): over the MCP SDK client, a call without
// a token leaves the order's NTE, its pending revision and its events as they were (no order.price_revision_resolved)
// and answers a preview with a token; the same call with the token approves once, and the token reused is refused.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

interface Order {
  status: string;
  nte_cents: number | null;
  price_revision: { id: string; status: string; amount_cents: number } | null;
}

describe("MCP dispatch.approve_price_revision asks before it approves", function () {
  this.timeout(60_000);
  let t: TestServer;
  let key: string;
  let client: Client;
  before(async () => {
    t = await startTestServer();
    key = (await t.issueKey({ account: "revision-confirm" })).key;
    client = new Client({ name: "revision-confirm-test", version: "1.0.0" });
    const requestInit = { headers: { authorization: `Bearer ${key}` } };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit }));
  });
  after(async () => {
    await client?.close();
    await t?.stop();
  });

  const rest = async <T>(path: string, init: RequestInit = {}) => {
    const headers = { "x-api-key": key, "content-type": "application/json" };
    const response = await fetch(`${t.url}/api/dispatch/v1${path}`, { ...init, headers });
    assert.ok(response.status < 300, `${path}: ${String(response.status)}`);
    return (await response.json()) as T;
  };
  const eventTypes = async (id: string) =>
    (await rest<{ items: { type: string }[] }>(`/orders/${id}/events`)).items.map((e) => e.type);
  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: "dispatch.approve_price_revision", arguments: args })) as CallToolResult;

  it("does nothing without its token; with it approves once (NTE raised, one resolved event); reuse is refused", async () => {
    // over a 1-cent NTE the order is held with a pending price revision at its price
    const body = {
      trade: "plumbing",
      location: { state: "TX", zip: "78701" },
      description: "Water heater leaking.",
      nte_cents: 1,
    };
    const created = await rest<{ order: { id: string } }>("/order", { method: "POST", body: JSON.stringify(body) });
    const id = created.order.id;
    const held = await rest<Order>(`/orders/${id}`);
    assert.equal(held.price_revision?.status, "pending");
    const args = { id, revision_id: held.price_revision.id };
    const events = await eventTypes(id);

    const first = await call(args);
    assert.notEqual(first.isError, true, JSON.stringify(first));
    const preview = first.structuredContent as { confirmation_required: boolean; confirmation_token: string };
    assert.equal(preview.confirmation_required, true);
    assert.match(preview.confirmation_token, /^dcf_/);
    const after = await rest<Order>(`/orders/${id}`);
    assert.deepEqual([after.nte_cents, after.price_revision?.status], [1, "pending"], "the preview approved");
    assert.deepEqual(await eventTypes(id), events, "the preview added events");
    assert.ok(!events.includes("order.price_revision_resolved"));

    const done = await call({ ...args, confirmation_token: preview.confirmation_token });
    assert.notEqual(done.isError, true, JSON.stringify(done));
    const approved = await rest<Order>(`/orders/${id}`);
    assert.equal(approved.price_revision?.status, "approved");
    assert.equal(approved.nte_cents, held.price_revision.amount_cents);
    const resolved = (await eventTypes(id)).filter((type) => type === "order.price_revision_resolved");
    assert.equal(resolved.length, 1);

    const again = await call({ ...args, confirmation_token: preview.confirmation_token });
    assert.equal(again.isError, true);
    const refusal = JSON.parse((again.content[0] as { text: string }).text) as { code: string; message: string };
    assert.equal(refusal.code, "confirmation_invalid");
    assert.match(refusal.message, /already used/);
    const resolvedAfter = (await eventTypes(id)).filter((type) => type === "order.price_revision_resolved");
    assert.equal(resolvedAfter.length, 1, "a reused token approved again");
  });
});
