// An event is written once and reads the same everywhere, forever: for an order declined, re-assigned, accepted,
// rescheduled and price-revised around another account's sandbox reset, each feed item is byte for byte its webhook
// body and the SSE data of a stream opened first, earlier items never change, each names its own moment's contractor
// and price (a re-assignment keeps the customer's), and REST, MCP and A2A show the same status history; a reset
// never gives an event id twice and streams opened before it keep delivering. On every test database.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { components } from "../../sdk/generated/openapi.js";
import { orderRequest } from "../fixtures/requests.js";
import { startReceiver } from "../fixtures/orders.js";
import { artifactData, ask, asTask, clientFor } from "../helpers/a2a.js";
import { alaskaOrder, answerOffer, call, contractorKey, orderOf, plumber } from "../helpers/contractors.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { openSse, type SseClient } from "../helpers/sse.js";
import { until } from "../helpers/wait.js";
import type { Receiver } from "../helpers/webhook-receiver.js";

type Event = components["schemas"]["DispatchEvent"];
const v1 = "/api/dispatch/v1";
const fast = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "20", WEBHOOK_BACKOFF_MS: "50" };
const statusTypes = ["order.created", "order.status_changed", "order.cancelled"];
const seqOf = (id: string) => Number(id.slice(4));

for (const db of databases()) {
  describe(`events written once (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let receiver: Receiver;
    const streams: SseClient[] = [];

    /** A page's items, each as the JSON text it was served in. */
    async function itemsOf(path: string, key: string): Promise<string[]> {
      const response = await t.fetch(`${t.url}${v1}${path}`, { headers: { "x-api-key": key } });
      assert.equal(response.status, 200);
      return ((await response.json()) as { items: Event[] }).items.map((item) => JSON.stringify(item));
    }
    const parsed = (texts: string[]) => texts.map((text) => JSON.parse(text) as Event);
    const deliveriesOf = (orderId: string) => receiver.deliveries.filter((d) => d.body.data.order_id === orderId);
    async function stream(key: string): Promise<SseClient> {
      const live = t.app.services.eventStreams.stats().live;
      const client = await openSse(`${t.url}${v1}/events`, { "x-api-key": key });
      streams.push(client);
      await until(() => t.app.services.eventStreams.stats().live > live, { message: "the stream to turn live" });
      return client;
    }
    /** A test-key order with a callback, all its events delivered. */
    async function sandboxOrder(key: string, reference: string) {
      const body = { ...orderRequest, reference_id: reference, callback_url: `${receiver.url}/sandbox` };
      const created = await call(t, "POST", `${v1}/order`, { "x-api-key": key }, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = (created.body.order as { id: string }).id;
      await until(() => deliveriesOf(id).length === 2, { message: `${reference}'s webhooks` });
      return id;
    }
    const reset = (key: string) => call(t, "POST", `${v1}/sandbox/reset`, { "x-api-key": key });

    before(async () => {
      t = await startTestServer(db, fast);
      receiver = await startReceiver();
    });
    after(async () => {
      for (const client of streams) client.close();
      await receiver?.stop();
      await t?.stop();
    });

    it("serves each event as written: feed, listEvents, webhook and SSE byte for byte, earlier items unchanged", async () => {
      const customer = (await t.issueKey({ account: "once", environment: "live" })).key;
      const cheap = await plumber(t, "Cheap Once Plumbing", 8000);
      const dear = await plumber(t, "Dear Once Plumbing", 12_000);
      const [cheapKey, dearKey] = [(await contractorKey(t, cheap.id)).key, (await contractorKey(t, dear.id)).key];
      const sse = await stream(customer);

      const body = { ...alaskaOrder("once-1"), urgency: "routine", callback_url: `${receiver.url}/once` };
      const created = await call(t, "POST", `${v1}/order`, { "x-api-key": customer }, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const order = created.body.order as { id: string; quoted_cost_cents: number };
      const id = order.id;
      await until(() => deliveriesOf(id).length === 2, { message: "creation's webhooks" });
      const atCreation = await itemsOf(`/orders/${id}/events`, customer);

      // declined by the cheaper plumber: re-offered to the dearer one, which accepts
      const offers = () => t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first();
      const declined = await answerOffer(t, cheapKey, (await offers())!.id, "decline", { reason: "no_capacity" });
      assert.equal(declined.status, 200, JSON.stringify(declined.body));
      const reoffered = (await offers())!;
      assert.equal(reoffered.contractor_id, dear.id);
      assert.equal((await answerOffer(t, dearKey, reoffered.id, "accept")).status, 200);
      const atAccept = await itemsOf(`/orders/${id}/events`, customer);

      // moved to another window of the dearer plumber's, then its price revised and approved
      const current = (await orderOf(t, customer, id)).arrival_window!;
      const quoteBody = { trade: "plumbing", urgency: "routine" };
      const location = { state: "AK", city: "Anchorage", zip: "99501" };
      const quote = await call(t, "POST", `${v1}/quote`, { "x-api-key": customer }, { ...quoteBody, location });
      assert.equal(quote.status, 200, JSON.stringify(quote.body));
      const windows = quote.body.arrival_windows as { start: string; end: string }[];
      const later = windows.find((w) => Date.parse(w.start) > Date.parse(current.start) + 4 * 3_600_000)!;
      const moved = await call(
        t,
        "POST",
        `${v1}/orders/${id}/reschedule`,
        { "x-api-key": customer },
        {
          arrival_window: later,
        },
      );
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      const asked = await call(
        t,
        "POST",
        `${v1}/contractor/jobs/${id}/price-revisions`,
        { "x-api-key": dearKey },
        {
          amount_cents: 130_000,
          reason: "A second leak behind the wall.",
        },
      );
      assert.equal(asked.status, 201, JSON.stringify(asked.body));
      const revision = (asked.body as { id: string }).id;
      const approved = await call(t, "POST", `${v1}/orders/${id}/price-revisions/${revision}/approve`, {
        "x-api-key": customer,
      });
      assert.equal(approved.status, 200, JSON.stringify(approved.body));

      // another account's sandbox holds the newest events, streamed already, and is reset
      const sandbox = (await t.issueKey({ account: "once-sandbox", environment: "test" })).key;
      const watching = await stream(sandbox);
      await sandboxOrder(sandbox, "once-sandbox-1");
      await until(() => watching.events.length === 2, { message: "the sandbox order's events on its stream" });
      assert.equal((await reset(sandbox)).status, 200);

      const estimated_arrival_at = new Date(Date.parse(later.start) + 30 * 60_000).toISOString();
      for (const report of [
        { status: "en_route", estimated_arrival_at },
        { status: "on_site" },
        { status: "completed", final_cost_cents: 125_000 },
      ]) {
        const reported = await call(t, "POST", `${v1}/contractor/jobs/${id}/status`, { "x-api-key": dearKey }, report);
        assert.equal(reported.status, 200, JSON.stringify(reported.body));
      }

      const feed = await itemsOf(`/orders/${id}/events`, customer);
      await until(() => deliveriesOf(id).length === feed.length && sse.data.length === feed.length, {
        message: "every event's webhook and SSE frame",
      });
      assert.deepEqual(await itemsOf("/events?limit=200", customer), feed);
      assert.deepEqual(sse.data, feed);
      const hooks = new Map(deliveriesOf(id).map((d) => [String(d.headers["webhook-id"]), d.raw]));
      assert.equal(hooks.size, feed.length, "a webhook-id named two deliveries");
      const everyId = receiver.deliveries.map((d) => String(d.headers["webhook-id"]));
      assert.equal(new Set(everyId).size, everyId.length, `a webhook-id was sent twice: ${everyId.join()}`);
      for (const item of parsed(feed)) assert.equal(hooks.get(item.id), JSON.stringify(item), item.id);
      assert.deepEqual(feed.slice(0, atCreation.length), atCreation);
      assert.deepEqual(feed.slice(0, atAccept.length), atAccept);

      // each event names the contractor and price of its own moment
      const events = parsed(feed);
      const createdEvent = events.find((e) => e.type === "order.created")!;
      assert.deepEqual(
        [createdEvent.data.assigned_contractor_ref, createdEvent.data.quoted_cost_cents],
        [cheap.ref, order.quoted_cost_cents],
      );
      const assigned = events.filter((e) => e.type === "order.assigned");
      assert.deepEqual(
        assigned.map((e) => [e.data.assigned_contractor_ref, e.data.reassigned, e.data.previous_status]),
        [
          [cheap.ref, false, null],
          [dear.ref, true, null],
          [dear.ref, true, "pending_dispatch"],
        ],
      );
      assert.equal(assigned[0].data.quoted_cost_cents, order.quoted_cost_cents);
      // the dearer plumber asks more, but a re-assignment keeps the customer's price (docs/decisions.md)
      assert.equal(assigned[1].data.quoted_cost_cents, order.quoted_cost_cents, "the customer's price kept");
      for (const event of assigned) assert.ok(event.data.arrival_window, `${event.id} carries the booked window`);
      const estimated = events.filter((e) => e.type === "order.eta_updated").at(-1)!;
      assert.deepEqual(
        estimated.data.arrival_window,
        { start: later.start, end: later.end },
        "the en_route estimate beside the booked window",
      );
      assert.equal(estimated.data.eta!.eta_outside_window, false);

      // the order's status history over MCP and A2A is the same stored rows: the feed's status events
      const rest = (await orderOf(t, customer, id)).events;
      assert.deepEqual(
        rest.map((e) => [e.status, e.at]),
        events.filter((e) => statusTypes.includes(e.type)).map((e) => [e.data.status, e.data.at]),
      );
      const a2a = await clientFor(t, { "x-api-key": customer });
      assert.deepEqual(artifactData(asTask(await ask(a2a, "dispatch.order_status", { id }))).events, rest);
      const mcp = new Client({ name: "events-written-once", version: "1.0.0" });
      const headers = { authorization: `Bearer ${customer}` };
      await mcp.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers } }));
      try {
        const read = await mcp.readResource({ uri: `dispatch://orders/${id}` });
        const history = (JSON.parse((read.contents[0] as { text: string }).text) as { events: unknown[] }).events;
        assert.deepEqual(history, rest);
      } finally {
        await mcp.close();
      }
    });

    it("never gives an event id twice across a sandbox reset; streams opened before it keep delivering", async () => {
      const key = (await t.issueKey({ account: "once-reset", environment: "test" })).key;
      const before = await stream(key);
      const first = await sandboxOrder(key, "reset-1");
      await until(() => before.events.length === 2, { message: "the first order's events on the stream" });
      const removed = before.events.map((e) => e.id);
      assert.equal((await reset(key)).status, 200);

      const fresh = await stream(key);
      const second = await sandboxOrder(key, "reset-1"); // the reference is free again
      await until(() => before.events.length === 4 && fresh.events.length === 2, {
        message: "the second order's events on both streams",
      });
      const added = before.events.slice(2).map((e) => e.id);
      assert.deepEqual(
        fresh.events.map((e) => e.id),
        added,
      );
      assert.deepEqual(
        before.events.map((e) => e.data.order_id),
        [first, first, second, second],
      );
      assert.ok(
        Math.min(...added.map(seqOf)) > Math.max(...removed.map(seqOf)),
        `${removed.join()} then ${added.join()}`,
      );
      const ids = receiver.deliveries.map((d) => String(d.headers["webhook-id"]));
      assert.equal(new Set(ids).size, ids.length, `a webhook-id was sent twice: ${ids.join()}`);
      assert.deepEqual(await itemsOf("/events", key), before.data.slice(2));
    });
  });
}
