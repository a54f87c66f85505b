// Escalation (server/services/dispatch/dispatcher/escalate.ts): an order still unassigned past its urgency's
// fulfilment deadline is escalated once — on the order (`escalation`), as one `order.escalated` event in the feed,
// and as an `escalation` audit record — with the reason (`no_contractor_in_area`, `no_window_available` when its
// contractors are fully booked, or `over_nte` when held); an order
// within its deadline is left alone, an escalated order is still assigned once a contractor can take it, and two
// instances on one Postgres escalate each order exactly once. The deadline is hours away, so the tests move the
// orders' creation back in the database rather than wait.
import assert from "node:assert/strict";
import { anchorageContractor, orderRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import {
  databases,
  postgresDatabase,
  startTestServer,
  twoInstancesOfOnePostgres,
  type TestServer,
} from "../helpers/server.js";
import { sleep, until, untilValue } from "../helpers/wait.js";

interface Escalation {
  reason: string;
  deadline_at: string;
  escalated_at: string;
}
interface OrderView {
  status: string;
  created_at: string;
  escalation?: Escalation | null;
  assigned_contractor_ref: string | null;
}
interface FeedEvent {
  type: string;
  data: { status: string; escalation?: Escalation };
}

const hours = (n: number) => n * 3_600_000;
const always = [{ start: "00:00", end: "24:00" }];
const allWeek = Object.fromEntries(
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((day) => [day, always]),
);

async function order(t: TestServer, key: string, body: Record<string, unknown>) {
  const response = await postOrder(t, { "x-api-key": key }, { ...orderRequest, ...body });
  assert.equal(response.status, 202);
  return ((await response.json()) as { order: { id: string } }).order.id;
}
const alaska = (reference: string, extra: Record<string, unknown> = {}) => ({
  location: { state: "AK", city: "Anchorage" },
  reference_id: reference,
  nte_cents: 100_000,
  ...extra,
});

async function view(t: TestServer, key: string, id: string): Promise<OrderView> {
  const response = await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}`, { headers: { "x-api-key": key } });
  assert.equal(response.status, 200);
  return (await response.json()) as OrderView;
}
async function feed(t: TestServer, key: string, id: string): Promise<FeedEvent[]> {
  const response = await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}/events`, { headers: { "x-api-key": key } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { items: FeedEvent[] }).items;
}

/** Moves the orders' creation `ms` into the past, as if they had waited that long. */
async function age(t: TestServer, ids: string[], ms: number): Promise<void> {
  const db = t.app.services.db;
  for (const id of ids) {
    const row = await db("orders").where({ id }).first();
    await db("orders")
      .where({ id })
      .update({ created_at: new Date(new Date(row!.created_at).getTime() - ms) });
  }
}

const escalated = (t: TestServer, key: string, id: string) =>
  untilValue(
    async () => {
      const current = await view(t, key, id);
      return current.escalation ? current : undefined;
    },
    { timeoutMs: 10_000, message: `order ${id} escalated` },
  );

for (const db of databases()) {
  describe(`escalation (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db);
      key = (await t.issueKey({ account: "escalation", environment: "live" })).key;
    });
    after(() => t?.stop());

    it("escalates an urgent order still unassigned 2 h after creation, once, on the order, in the feed and the log", async () => {
      const id = await order(t, key, alaska("esc-1"));
      const fresh = await order(t, key, alaska("esc-fresh", { urgency: "routine" }));
      await age(t, [id], hours(3));
      await age(t, [fresh], hours(3)); // routine: 24 h to find a contractor
      t.app.services.dispatcher.nudge();
      const current = await escalated(t, key, id);
      assert.equal(current.status, "accepted_pending_fulfilment");
      assert.equal(current.escalation!.reason, "no_contractor_in_area");
      assert.equal(
        current.escalation!.deadline_at,
        new Date(new Date(current.created_at).getTime() + hours(2)).toISOString(),
      );
      const events = await untilValue(async () => {
        const items = await feed(t, key, id);
        return items.some((event) => event.type === "order.escalated") ? items : undefined;
      });
      assert.deepEqual(
        events.map((event) => event.type),
        ["order.created", "order.escalated"],
      );
      assert.deepEqual(events[1].data.escalation, current.escalation);
      assert.equal(events[1].data.status, "accepted_pending_fulfilment");
      const records = await t.app.services
        .db("audit_records")
        .where({ subject: id, type: "escalation" })
        .orderBy("position");
      assert.equal(records.length, 1);
      // More sweeps change nothing: once per order.
      t.app.services.dispatcher.nudge();
      await sleep(1500);
      t.app.services.dispatcher.nudge();
      await sleep(1500);
      assert.equal((await feed(t, key, id)).filter((event) => event.type === "order.escalated").length, 1);
      assert.deepEqual((await view(t, key, id)).escalation, current.escalation);
      assert.equal((await view(t, key, fresh)).escalation ?? null, null, "routine order within its 24 h");
      // Evals count it among the window's live orders, with its sample size.
      const evals = (await (await t.fetch(`${t.url}/api/dispatch/analytics/evals?period=rolling_7d`)).json()) as {
        metrics: { escalation_rate: { value: number; sample_size: number; provenance: string } };
      };
      assert.equal(evals.metrics.escalation_rate.provenance, "measurement");
      assert.equal(evals.metrics.escalation_rate.sample_size, 2);
      assert.equal(evals.metrics.escalation_rate.value, 0.5);
    });

    it("gives an order held over its NTE the reason over_nte", async () => {
      const id = await order(t, key, { reference_id: "esc-held", nte_cents: 1 }); // TX: priced, over its NTE
      await age(t, [id], hours(3));
      t.app.services.dispatcher.nudge();
      assert.equal((await escalated(t, key, id)).escalation!.reason, "over_nte");
    });

    it("gives an order waiting for a window (its only contractor fully booked) the reason no_window_available", async () => {
      const own = (await t.issueKey({ account: "escalation-full", environment: "live" })).key;
      // works round the clock every day, one job a day: the urgent horizon (24 h) spans one or two of its days
      await t.app.services.contractors.create({
        ...anchorageContractor("electrical", "Booked-up Anchorage Electric"),
        working_hours: allWeek,
        capacity: { concurrent_jobs: 1, jobs_per_day: 1 },
      });
      const job = { trade: "electrical", description: "Breaker keeps tripping." };
      let waiting: string | undefined;
      for (let i = 0; i < 4 && !waiting; i++) {
        const response = await postOrder(t, { "x-api-key": own }, { ...orderRequest, ...alaska(`esc-full-${i}`, job) });
        const body = (await response.json()) as { order: { id: string }; fulfilment?: { reason: string } };
        if (response.status === 201) continue;
        assert.equal(response.status, 202);
        assert.equal(body.fulfilment!.reason, "no_window_available");
        waiting = body.order.id;
      }
      assert.ok(waiting, "its days fill after at most three orders");
      await age(t, [waiting], hours(3));
      t.app.services.dispatcher.nudge();
      const current = await escalated(t, own, waiting);
      assert.equal(current.status, "accepted_pending_fulfilment");
      assert.equal(current.escalation!.reason, "no_window_available");
      const events = await feed(t, own, waiting);
      assert.deepEqual(events.find((event) => event.type === "order.escalated")?.data.escalation, current.escalation);
    });

    it("still assigns an escalated order once a contractor can take it", async () => {
      const id = await order(t, key, alaska("esc-late", { trade: "hvac", description: "No heat at all." }));
      await age(t, [id], hours(3));
      t.app.services.dispatcher.nudge();
      const before = await escalated(t, key, id);
      await t.app.services.contractors.create(anchorageContractor("hvac", "Late Anchorage Heating"));
      await until(async () => (await view(t, key, id)).status === "pending_dispatch", { timeoutMs: 10_000 });
      const after = await view(t, key, id);
      assert.deepEqual(after.escalation, before.escalation, "the escalation stays on the order");
      assert.match(after.assigned_contractor_ref ?? "", /^ctr_/);
    });
  });
}

const postgres = postgresDatabase();
(postgres ? describe : describe.skip)("escalation on two instances of one Postgres", function () {
  this.timeout(180_000);
  const servers = twoInstancesOfOnePostgres();

  it("escalates each of 30 overdue orders exactly once when both sweep at once", async () => {
    const { a, b } = servers;
    const { key } = await a.issueKey({ account: "escalation-two", environment: "live" });
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await order(i % 2 ? a : b, key, alaska(`esc-two-${i}`)));
    await age(a, ids, hours(3));
    a.app.services.dispatcher.nudge();
    b.app.services.dispatcher.nudge();
    const db = a.app.services.db;
    await until(
      async () => (await db("orders").whereIn("id", ids).whereNotNull("escalated_at")).length === ids.length,
      {
        timeoutMs: 30_000,
        message: "every order escalated",
      },
    );
    await sleep(1500); // the slower instance's sweep has ended too
    const events = await db("order_events").whereIn("order_id", ids).where({ type: "order.escalated" });
    assert.equal(events.length, ids.length, "one order.escalated per order");
    const records = await db("audit_records").whereIn("subject", ids).where({ type: "escalation" }).orderBy("position");
    assert.equal(records.length, ids.length, "one escalation record per order");
  });
});
