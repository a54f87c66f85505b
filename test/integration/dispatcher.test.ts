// The dispatcher (server/services/dispatch/dispatcher/sweep.ts): an order accepted without a contractor (202) is
// assigned once the pool can take it — at once when a contractor is added (the default 30 s interval is not what
// does it) — in both environments alike (the sandbox invents no contractor), never above its NTE, and exactly once
// with two instances on one Postgres.
import assert from "node:assert/strict";
import { anchorageContractor, orderRequest } from "../fixtures/requests.js";
import { postOrder, recordEvent } from "../fixtures/orders.js";
import { jsonRequest } from "../helpers/request.js";
import {
  adminToken,
  databases,
  postgresDatabase,
  startTestServer,
  twoInstancesOfOnePostgres,
  type TestServer,
} from "../helpers/server.js";
import { sleep, until, untilValue } from "../helpers/wait.js";

const anchorage = { state: "AK", city: "Anchorage", zip: "99501" };
/** An order where the demo pool has nobody (AK): a 202 until a contractor there joins. */
const alaskaOrder = (reference: string, extra: Record<string, unknown> = {}) => ({
  ...orderRequest,
  location: { ...anchorage, address: "1 Main St" },
  reference_id: reference,
  nte_cents: 100_000,
  ...extra,
});
const alaskaPlumber = (name: string, hourly = 9000) => ({
  ...anchorageContractor("plumbing", name),
  hourly_rate_cents: hourly,
});

async function admin(t: Pick<TestServer, "url" | "fetch">, path: string, method = "GET", body?: unknown) {
  const response = await jsonRequest(t, method, `/api/admin/v1${path}`, {
    headers: { authorization: `Bearer ${adminToken}` },
    body,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** POSTs an order; its status and body. */
async function order(t: TestServer, key: string, body: unknown) {
  const response = await postOrder(t, { "x-api-key": key }, body);
  return { status: response.status, body: (await response.json()) as { order: { id: string }; code?: string } };
}

interface OrderView {
  status: string;
  assigned_contractor_ref: string | null;
  events: { status: string; note: string | null }[];
}
async function orderOf(t: Pick<TestServer, "url" | "fetch">, key: string, id: string): Promise<OrderView> {
  const response = await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}`, { headers: { "x-api-key": key } });
  assert.equal(response.status, 200);
  return (await response.json()) as OrderView;
}

async function unassignedOrder(t: TestServer, key: string, reference: string, extra?: Record<string, unknown>) {
  const response = await order(t, key, alaskaOrder(reference, extra));
  assert.equal(response.status, 202, JSON.stringify(response.body));
  return response.body.order.id;
}

for (const db of databases()) {
  describe(`dispatcher (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    before(async () => {
      t = await startTestServer(db, { SANDBOX_STEP_MS: "200" }); // the sandbox clock runs: it must not assign
    });
    after(() => t?.stop());

    it("assigns a waiting order within seconds of a contractor joining, in the live and the test environment", async () => {
      const live = await t.issueKey({ account: "dispatcher-a", environment: "live" });
      const test = await t.issueKey({ account: "dispatcher-a", environment: "test" });
      const liveOrder = await unassignedOrder(t, live.key, "disp-live-1");
      const testOrder = await unassignedOrder(t, test.key, "disp-test-1");
      // Nobody serves AK: the sandbox's clock ticks every 200 ms and still invents nobody.
      await sleep(1500);
      for (const [key, id] of [
        [live.key, liveOrder],
        [test.key, testOrder],
      ])
        assert.equal((await orderOf(t, key, id)).status, "accepted_pending_fulfilment");

      const joined = Date.now();
      const created = await admin(t, "/contractors", "POST", alaskaPlumber("Anchorage Pipe Works"));
      assert.equal(created.status, 201);
      const assigned = await untilValue(
        async () => {
          const view = await orderOf(t, live.key, liveOrder);
          return view.status === "pending_dispatch" ? view : undefined;
        },
        { timeoutMs: 10_000, message: "the order's assignment" },
      );
      // The default interval is 30 s: the contractor's change notice, not the interval, made the sweep.
      assert.ok(Date.now() - joined < 10_000);
      assert.match(assigned.assigned_contractor_ref ?? "", /^ctr_/);
      assert.deepEqual(
        assigned.events.map((event) => event.status),
        ["accepted_pending_fulfilment", "pending_dispatch"],
      );
      assert.equal(assigned.events[1].note, "Assigned by the dispatcher.");
      // The sandbox follows the same rule: the test order is assigned the same way, then walks on.
      await until(async () => (await orderOf(t, test.key, testOrder)).status !== "accepted_pending_fulfilment", {
        timeoutMs: 10_000,
      });
    });

    it("never assigns an order held over its NTE, and answers advancing it by hand with 409", async () => {
      const test = await t.issueKey({ account: "dispatcher-b", environment: "test" });
      const held = await unassignedOrder(t, test.key, "disp-held-1", { nte_cents: 100 });
      await admin(t, "/contractors", "POST", alaskaPlumber("Pricey Anchorage Plumbing", 20_000));
      await sleep(2500); // two sweeps' worth after the nudge
      assert.equal((await orderOf(t, test.key, held)).status, "accepted_pending_fulfilment");
    });

    it("answers advancing an order nobody can take with 409 no_contractor_in_area (no simulated contractor)", async () => {
      const test = await t.issueKey({ account: "dispatcher-c", environment: "test" });
      const id = await unassignedOrder(t, test.key, "disp-roof-1", {
        trade: "roofing",
        description: "Roof leak over the garage.",
      });
      const advanced = await jsonRequest(t, "POST", `/api/dispatch/v1/sandbox/orders/${id}/advance`, {
        headers: { "x-api-key": test.key },
        body: {},
      });
      assert.equal(advanced.status, 409);
      assert.equal(((await advanced.json()) as { code: string }).code, "no_contractor_in_area");
      assert.equal((await orderOf(t, test.key, id)).status, "accepted_pending_fulfilment");
    });
  });
}

const postgres = postgresDatabase();
(postgres ? describe : describe.skip)("dispatcher on two instances of one Postgres", function () {
  this.timeout(180_000);
  const servers = twoInstancesOfOnePostgres();

  it("assigns each of 40 waiting orders exactly once when both sweep at the same time", async () => {
    const { a, b } = servers;
    const live = await a.issueKey({ account: "dispatcher-two", environment: "live" });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await unassignedOrder(i % 2 ? a : b, live.key, `disp-two-${i}`));
    // Both instances hear of the contractor (the change feed's trigger) and sweep the same 40 orders at once.
    await admin(a, "/contractors", "POST", alaskaPlumber("Two Instance Plumbing"));
    const db = a.app.services.db;
    await until(
      async () => (await db("orders").whereIn("id", ids).where({ status: "pending_dispatch" })).length === ids.length,
      { timeoutMs: 30_000, message: "every order assigned" },
    ); // read from the database: 40 orders polled through the API would meet its rate limit
    const assignments = await db("order_events")
      .whereIn("order_id", ids)
      .where({ status: "pending_dispatch", type: "order.status_changed" });
    assert.equal(assignments.length, ids.length, "one assignment event per order");
    assert.equal(new Set(assignments.map((event: { order_id: string }) => event.order_id)).size, ids.length);
    const facts = await db("order_events").whereIn("order_id", ids).where({ type: "order.assigned" });
    assert.equal(facts.length, ids.length, "one order.assigned per order");
    // One match record per order in the audit log, whichever instance won it.
    const matches = await db("audit_records").where({ type: "match" }).whereIn("subject", ids).orderBy("position");
    assert.equal(matches.length, ids.length);
    assert.equal(new Set(matches.map((record: { subject: string }) => record.subject)).size, ids.length);
    await recordEvent(a, ids[0], { status: "cancelled" }); // leaves nothing behind that matters
  });
});
