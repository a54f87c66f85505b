// Sandbox scenarios (sandbox/scenarios.ts): each `sandbox_scenario` gives one event-type
// sequence, the same on every run, on PGlite and on Postgres; the simulated contractors move the order through the
// contractor operations (the audit log shows their offer answers and job reports). The table runs in seconds: the
// account's clock is frozen and advanced `to: next_step`, never waited on (SANDBOX_STEP_MS one minute: each step
// comes before the urgent offer's deadline, as with the default five seconds). A live key naming a scenario gets 422.
// The Austin plumbing job's holder is the demo pool's 24/7 metro shop, so `contractor_reschedules` always finds its
// next window two hours later within the urgent horizon, whatever the hour the suite runs at.
import assert from "node:assert/strict";
import { orderRequest } from "../fixtures/requests.js";
import { jsonRequest } from "../helpers/request.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

const happyFromDispatched = [
  "order.status_changed:dispatched",
  "order.assigned:dispatched",
  "order.status_changed:en_route",
  "order.eta_updated:en_route",
  "order.status_changed:on_site",
];
const completed = ["order.status_changed:completed", "order.completed:completed"];
const created = ["order.created:pending_dispatch", "order.assigned:pending_dispatch"];
const reassigned = [...created, "order.assigned:pending_dispatch"];
const revised = [
  ...created,
  ...happyFromDispatched,
  "order.price_revision_requested:on_site",
  "order.price_revision_resolved:on_site",
  ...completed,
];

/** The types without the order.rescheduled a re-offer sends right after its order.assigned when the next
 * contractor's booking is in another window (the contract's scenario table says so); any other stays compared. */
const withoutMovedWindows = (types: string[]): string[] =>
  types.filter(
    (type, i) => !(type.startsWith("order.rescheduled:") && types[i - 1] === "order.assigned:pending_dispatch"),
  );

const table: Record<string, string[]> = {
  happy_path: [...created, ...happyFromDispatched, ...completed],
  decline_then_reassign: [...reassigned, ...happyFromDispatched, ...completed],
  offer_expires: [...reassigned, ...happyFromDispatched, ...completed],
  unable_to_attend: [
    ...created,
    "order.status_changed:dispatched",
    "order.assigned:dispatched",
    "order.status_changed:pending_dispatch",
    "order.assigned:pending_dispatch",
    ...happyFromDispatched,
    ...completed,
  ],
  price_revision_approved: revised,
  price_revision_declined: revised,
  // the demo pool has two eligible contractors for the default job: one order.assigned each, then the queue
  no_contractor_then_escalate: [
    ...reassigned,
    "order.status_changed:accepted_pending_fulfilment",
    "order.escalated:accepted_pending_fulfilment",
  ],
  cancelled_by_provider: [
    ...created,
    "order.status_changed:dispatched",
    "order.assigned:dispatched",
    "order.status_changed:pending_dispatch",
    "order.assigned:pending_dispatch",
    "order.cancelled:cancelled",
  ],
  contractor_reschedules: [
    ...created,
    "order.status_changed:dispatched",
    "order.assigned:dispatched",
    "order.rescheduled:dispatched",
    "order.eta_updated:dispatched",
    ...happyFromDispatched.slice(2),
    ...completed,
  ],
  late_arrival: [...created, ...happyFromDispatched, ...completed],
};
/** The contractor operation each scenario's audit log shows (the holder's reports, else the offer answers). */
const contractorAudit: Record<string, string> = { no_contractor_then_escalate: "offer" };

const call = async (t: TestServer, path: string, key: string, body?: unknown) => {
  const response = await jsonRequest(t, body === undefined ? "GET" : "POST", `/api/dispatch/v1${path}`, {
    headers: { "x-api-key": key },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
};

/** Runs one scenario on a fresh account with a frozen clock, advancing to each next step until the order is final. */
async function run(t: TestServer, scenario: string, account: string) {
  const { key } = await t.issueKey({ account, environment: "test" });
  assert.equal((await call(t, "/sandbox/clock/advance", key, { by: "0s" })).status, 200);
  const body = { ...orderRequest, reference_id: `${account}-order`, sandbox_scenario: scenario };
  const made = await call(t, "/order", key, body);
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = (made.body.order as { id: string }).id;
  const db = t.app.services.db;
  for (let stop = 0; stop < 40; stop++) {
    const row = await db("orders").where({ id }).first("status");
    if (row!.status === "completed" || row!.status === "cancelled") break;
    const advanced = await call(t, "/sandbox/clock/advance", key, { to: "next_step" });
    if (advanced.status === 409) break;
    assert.equal(advanced.status, 200, JSON.stringify(advanced.body));
  }
  const events = await db("order_events").where({ order_id: id }).orderBy("id").select("type", "status");
  return { id, types: events.map((e) => `${e.type}:${e.status}`) };
}

for (const target of databases()) {
  describe(`sandbox scenarios (${target.name})`, function () {
    this.timeout(120_000);
    // A server per scenario: each starts from the demo pool's free seats, as an integrator's fresh sandbox does.
    let t: TestServer;
    beforeEach(async () => {
      t = await startTestServer(target, { SANDBOX_STEP_MS: String(60_000), DISPATCHER_INTERVAL_MS: "1000" });
    });
    afterEach(() => t?.stop());

    for (const [scenario, sequence] of Object.entries(table))
      it(`${scenario}: the same event types in the same order on every run, through the contractor operations`, async () => {
        const first = await run(t, scenario, `${scenario}-1`);
        assert.deepEqual(withoutMovedWindows(first.types), sequence);
        const second = await run(t, scenario, `${scenario}-2`);
        assert.deepEqual(second.types, first.types);
        const audit = await t.app.services.db("audit_records").where({ subject: first.id }).select("type");
        const operation = contractorAudit[scenario] ?? "job_status";
        assert.ok(
          audit.some((record) => record.type === operation),
          `the simulated contractor acted through its operations (${operation} audit records)`,
        );
      });

    it("lets the customer answer the revision before the sandbox does: price_revision_declined, approved by the test", async () => {
      const { key } = await t.issueKey({ account: "answers", environment: "test" });
      assert.equal((await call(t, "/sandbox/clock/advance", key, { by: "0s" })).status, 200);
      const body = { ...orderRequest, reference_id: "answers-order", sandbox_scenario: "price_revision_declined" };
      const id = ((await call(t, "/order", key, body)).body.order as { id: string }).id;
      const db = t.app.services.db;
      const pending = () => db("order_price_revisions").where({ order_id: id, status: "pending" }).first();
      for (let stop = 0; stop < 20 && !(await pending()); stop++)
        assert.equal((await call(t, "/sandbox/clock/advance", key, { to: "next_step" })).status, 200);
      const revision = (await pending())!;
      const approved = await call(t, `/orders/${id}/price-revisions/${revision.id}/approve`, key, {});
      assert.equal(approved.status, 200, JSON.stringify(approved.body));
      for (let stop = 0; stop < 20 && (await db("orders").where({ id }).first())!.status !== "completed"; stop++)
        assert.equal((await call(t, "/sandbox/clock/advance", key, { to: "next_step" })).status, 200);
      const order = (await db("orders").where({ id }).first())!;
      assert.equal(order.status, "completed");
      assert.equal(order.nte_cents, revision.amount_cents);
      const events = await db("order_events").where({ order_id: id }).orderBy("id").select("type", "status");
      assert.deepEqual(
        events.map((e) => `${e.type}:${e.status}`),
        table.price_revision_declined,
      );
    });

    it("no_contractor_then_escalate: every offer declined, queued without seats, escalated at the urgent deadline, then left alone", async () => {
      const { id } = await run(t, "no_contractor_then_escalate", "escalates");
      const db = t.app.services.db;
      const offers = await db("order_offers").where({ order_id: id }).orderBy("created_at").select("status");
      assert.deepEqual(
        offers.map((offer) => offer.status),
        ["declined", "declined"],
      );
      const order = (await db("orders").where({ id }).first())!;
      assert.equal(order.status, "accepted_pending_fulfilment");
      assert.equal(order.contractor_id, null);
      assert.equal(order.escalation_reason, "no_contractor_in_area");
      const deadline = new Date(order.created_at).getTime() + 120 * 60_000; // urgent: two hours
      assert.equal(new Date(order.escalated_at!).getTime(), deadline);
      assert.equal((await db("contractor_bookings").where({ order_id: id })).length, 0);
      // nothing more is scheduled, and a day later it is still escalated and unassigned: no more optimistic than live
      const { key } = await t.issueKey({ account: "escalates", environment: "test" });
      const clock = await call(t, "/sandbox/clock", key);
      assert.equal(clock.body.next_step_at, null);
      const before = await db("order_events").where({ order_id: id }).count<{ n: string }[]>({ n: "*" });
      assert.equal((await call(t, "/sandbox/clock/advance", key, { by: "24h" })).status, 200);
      const after = await db("order_events").where({ order_id: id }).count<{ n: string }[]>({ n: "*" });
      assert.equal(Number(after[0].n), Number(before[0].n));
      assert.equal((await db("orders").where({ id }).first())!.status, "accepted_pending_fulfilment");
      // assigned by hand as an operator would: that contractor declines at the next step, back to the queue, not
      // escalated twice
      const assigned = await call(t, `/sandbox/orders/${id}/advance`, key, {});
      assert.equal(assigned.body.status, "pending_dispatch", JSON.stringify(assigned.body));
      assert.equal((await call(t, "/sandbox/clock/advance", key, { to: "next_step" })).status, 200);
      const events = await db("order_events").where({ order_id: id }).orderBy("id").select("type", "status");
      assert.deepEqual(
        events.slice(Number(after[0].n)).map((e) => `${e.type}:${e.status}`),
        [
          "order.status_changed:pending_dispatch",
          "order.assigned:pending_dispatch",
          "order.status_changed:accepted_pending_fulfilment",
        ],
      );
    });

    it("cancelled_by_provider: the operator's cancel after the give-back, the re-offer withdrawn, the seats freed", async () => {
      const { id } = await run(t, "cancelled_by_provider", "provider-cancels");
      const db = t.app.services.db;
      const order = (await db("orders").where({ id }).first())!;
      assert.equal(order.status, "cancelled");
      assert.deepEqual(
        { reason: order.cancellation?.reason, by: order.cancellation?.by },
        { reason: "operator_decision", by: "operator" },
      );
      const offers = await db("order_offers").where({ order_id: id }).orderBy("created_at").select("status");
      assert.deepEqual(
        offers.map((offer) => offer.status),
        ["accepted", "withdrawn"],
      );
      assert.equal((await db("contractor_bookings").where({ order_id: id })).length, 0);
      const reports = await db("audit_records").where({ subject: id, type: "job_status" }).select("content");
      assert.deepEqual(
        reports.map((record) => (JSON.parse(record.content) as { status: string }).status),
        ["unable_to_attend"],
      );
    });

    it("advanceSandboxOrder to completed stops where these scenarios end the walk: back in the queue, or cancelled", async () => {
      const { key } = await t.issueKey({ account: "by-hand", environment: "test" });
      assert.equal((await call(t, "/sandbox/clock/advance", key, { by: "0s" })).status, 200);
      const ends: Record<string, string> = {
        no_contractor_then_escalate: "accepted_pending_fulfilment",
        cancelled_by_provider: "cancelled",
      };
      for (const [scenario, status] of Object.entries(ends)) {
        const body = { ...orderRequest, reference_id: `by-hand-${scenario}`, sandbox_scenario: scenario };
        const id = ((await call(t, "/order", key, body)).body.order as { id: string }).id;
        const walked = await call(t, `/sandbox/orders/${id}/advance`, key, { to: "completed" });
        assert.equal(walked.status, 200, JSON.stringify(walked.body));
        assert.equal(walked.body.status, status);
      }
    });

    it("contractor_reschedules moves the job to a later window through rescheduleJob; late_arrival's en_route ETA is after the window", async () => {
      const db = t.app.services.db;
      const moved = await run(t, "contractor_reschedules", "moved-window");
      const rescheduled = await db("order_events").where({ order_id: moved.id, type: "order.rescheduled" }).first();
      const data = rescheduled!.data!;
      assert.equal(data.rescheduled_by, "contractor");
      assert.ok(Date.parse(data.arrival_window!.start) > Date.parse(data.previous_arrival_window!.start));
      const audit = await db("audit_records").where({ subject: moved.id, type: "reschedule" }).first();
      const content = JSON.parse(audit!.content) as { by: string; contractor_id: string };
      const order = (await db("orders").where({ id: moved.id }).first())!;
      assert.deepEqual([content.by, content.contractor_id], ["contractor", order.contractor_id]);
      assert.equal(new Date(order.arrival_window_start!).getTime(), Date.parse(data.arrival_window!.start));

      const late = await run(t, "late_arrival", "late-eta");
      const eta = await db("order_events")
        .where({ order_id: late.id, type: "order.eta_updated", status: "en_route" })
        .first();
      const row = (await db("orders").where({ id: late.id }).first())!;
      assert.equal(eta!.data!.eta!.source, "contractor");
      assert.ok(
        Date.parse(eta!.data!.eta!.estimated_arrival_at) > new Date(row.arrival_window_end!).getTime(),
        "the estimate is after the window's end",
      );
      assert.equal(Date.parse(eta!.data!.eta!.estimated_arrival_at), new Date(row.eta_at!).getTime());
    });

    it("refuses sandbox_scenario from a live key: 422 pointing at /sandbox_scenario", async () => {
      const { key } = await t.issueKey({ account: "live-scenario", environment: "live" });
      const body = { ...orderRequest, reference_id: "live-scenario", sandbox_scenario: "happy_path" };
      const refused = await call(t, "/order", key, body);
      assert.equal(refused.status, 422);
      const errors = refused.body.errors as { pointer: string }[];
      assert.deepEqual(
        errors.map((e) => e.pointer),
        ["/sandbox_scenario"],
      );
      assert.equal(await t.app.services.db("orders").where({ reference_id: "live-scenario" }).first(), undefined);
    });
  });
}

// With SANDBOX_STEP_MS 0 the sandbox takes no step on the wall clock; an advance of the account's clock still
// takes each one (1 ms of its time after the order's last change), so `to: next_step` walks every scenario
// through the same sequence as above, one step at a time.
for (const target of databases()) {
  describe(`sandbox scenarios with SANDBOX_STEP_MS 0, walked by to: next_step (${target.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    beforeEach(async () => {
      t = await startTestServer(target, { SANDBOX_STEP_MS: "0", DISPATCHER_INTERVAL_MS: "1000" });
    });
    afterEach(() => t?.stop());

    for (const [scenario, sequence] of Object.entries(table))
      it(`${scenario}: the table's event types, one step per advance to the next step`, async () => {
        assert.deepEqual(withoutMovedWindows((await run(t, scenario, `${scenario}-zero`)).types), sequence);
      });

    it("happy_path: each step 1 ms of the account's clock after the one before, setting off and on site by the window", async () => {
      const { id } = await run(t, "happy_path", "zero-timing");
      const db = t.app.services.db;
      const row = (await db("orders").where({ id }).first())!;
      const created = new Date(row.created_at).getTime();
      // the technician sets off its drive (the response minutes) before the window and is on site from its start
      const windowStart = new Date(row.arrival_window_start!).getTime();
      const enRoute = Math.max(created + 2, windowStart - row.estimated_response_minutes! * 60_000) - created;
      const onSite = Math.max(created + enRoute + 1, windowStart) - created;
      const steps = await db("order_events").where({ order_id: id, type: "order.status_changed" }).orderBy("id");
      assert.deepEqual(
        steps.map((step) => `${step.status}+${new Date(step.at).getTime() - created}ms`),
        ["dispatched+1ms", `en_route+${enRoute}ms`, `on_site+${onSite}ms`, `completed+${onSite + 1}ms`],
      );
    });
  });
}
