// Re-planning in the build users run, on Postgres + Redis, two processes, at the default dispatcher interval (30 s,
// DISPATCHER_INTERVAL_MS unset): a contractor declining a job frees its one technician without nudging any
// dispatcher, so the urgent job booked late behind it is brought by its deadline only by a sweep that comes on its
// own. Checked from the customer's side (getOrder's ETA against the deadline and the window, listOrderEvents'
// order.rescheduled by `dispatch`) and in the booked time (no technician twice).
import assert from "node:assert/strict";
import pg from "pg";
import { anchorageContractor } from "../fixtures/requests.js";
import { admin, answerOffer, call, contractorKey, orderOf } from "../helpers/contractors.js";
import { twoBuiltProcesses } from "../helpers/server-process.js";
import { issueTestKey, type ServerTarget } from "../helpers/server.js";
import { sleep, until } from "../helpers/wait.js";
import { alwaysWorking } from "../../server/services/dispatch/working-hours.js";

const urgentDeadlineMs = 2 * 60 * 60_000;
/** The dispatcher's default idle interval (server/config.ts). */
const defaultIntervalMs = 30_000;

describe("re-planning: the built server on Postgres + Redis, at the default dispatcher interval", function () {
  this.timeout(180_000);
  const servers = twoBuiltProcesses(); // DISPATCHER_INTERVAL_MS unset: the default
  let a: ServerTarget;
  let b: ServerTarget;
  before(() => {
    a = { url: servers.a, fetch };
    b = { url: servers.b, fetch };
  });

  it("brings a job booked late by its deadline at a sweep nobody nudged, announced, with no technician twice", async () => {
    const contractor = await call(a, "POST", "/api/admin/v1/contractors", admin, {
      ...anchorageContractor("carpentry", "Built re-plan carpentry"), // four hours a job: one at a time
      emergency_capable: false,
      working_hours: alwaysWorking,
      capacity: { concurrent_jobs: 1, jobs_per_day: 20 },
    });
    assert.equal(contractor.status, 201, JSON.stringify(contractor.body));
    const contractorId = contractor.body.id as string;
    const { key: contractorSecret } = await contractorKey(a, contractorId);
    const { key: customer } = await issueTestKey(a, { account: "replan-built", environment: "live" });
    const order = async (target: ServerTarget, reference: string) => {
      const created = await call(
        target,
        "POST",
        "/api/dispatch/v1/order",
        { "x-api-key": customer },
        {
          trade: "carpentry",
          urgency: "urgent",
          description: "Re-planning in the built server.",
          reference_id: reference,
          location: { state: "AK", city: "Anchorage", zip: "99501", address: "1 Main St" },
        },
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return (created.body.order as { id: string }).id;
    };
    const promise = async (target: ServerTarget, id: string) => {
      const view = await orderOf(target, customer, id);
      const eta = Date.parse(view.eta!.estimated_arrival_at);
      const [start, end] = [view.arrival_window!.start, view.arrival_window!.end].map(Date.parse);
      const onTime = eta <= Date.parse(view.created_at) + urgentDeadlineMs;
      return { view, onTime, inWindow: eta >= start && eta < end };
    };

    // adding the contractor and its key nudged both dispatchers: their sweeps pass before the jobs come
    await sleep(5000);
    const first = await order(a, "built-first");
    const late = await order(b, "built-late"); // behind the first on the one technician
    const booked = await promise(a, late);
    assert.ok((await promise(a, first)).onTime);
    assert.ok(!booked.onTime && booked.inWindow, JSON.stringify(booked.view.eta));

    // the contractor declines the first job: its technician is free, and no dispatcher is nudged
    const offers = await call(b, "GET", "/api/dispatch/v1/contractor/offers", { "x-api-key": contractorSecret });
    const offer = (offers.body.items as { id: string; job: { order_id: string } }[]).find(
      (o) => o.job.order_id === first,
    );
    assert.ok(offer, JSON.stringify(offers.body));
    const declined = await answerOffer(b, contractorSecret, offer.id, "decline", { reason: "no_capacity" });
    assert.equal(declined.status, 200, JSON.stringify(declined.body));
    const declinedAt = Date.now();

    await until(async () => (await promise(a, late)).onTime, {
      timeoutMs: 2 * defaultIntervalMs + 15_000,
      intervalMs: 2000,
      message: "the late job re-planned by a sweep of either process",
    });
    const waitedMs = Date.now() - declinedAt;
    assert.ok(waitedMs <= defaultIntervalMs + 15_000, `re-planned ${waitedMs} ms after the decline`);
    const now = await promise(b, late);
    assert.ok(now.inWindow, JSON.stringify(now.view));
    const events = await call(a, "GET", `/api/dispatch/v1/orders/${late}/events`, { "x-api-key": customer });
    const moves = (events.body.items as { type: string; data: { rescheduled_by: string } }[]).filter(
      (event) => event.type === "order.rescheduled",
    );
    assert.deepEqual(
      moves.map((event) => event.data.rescheduled_by),
      ["dispatch"],
    );

    const client = new pg.Client({ connectionString: servers.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select order_id from contractor_bookings where contractor_id = $1 and seat is not null",
        [contractorId],
      );
      assert.equal(rows.length, 1, "the declined job holds no time: only the re-planned one does");
    } finally {
      await client.end();
    }
  });
});
