// Re-planning (server/services/dispatch/day-plan.ts, orders/make-way.ts, dispatcher/replan.ts), on every test
// database, with contractors working all week so any instant will do: an urgent job nobody reaches by its deadline
// moves a routine job that has not set off to a later time still by its own deadline, both announced
// (order.rescheduled, rescheduled_by dispatch, with the window before; job.rescheduled on the contractor's feed); a
// job booked late is brought by its deadline at the sweep once a technician frees up; a job already booked past its
// deadline makes way for one that can still be kept; a window the customer chose never moves; and two instances
// re-planning the same late jobs at once never book a technician twice.
import assert from "node:assert/strict";
import { anchorageContractor } from "../fixtures/requests.js";
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
import { until } from "../helpers/wait.js";
import type { Schemas } from "../../server/types/contract.js";
import { alwaysWorking } from "../../server/services/dispatch/working-hours.js";
import { now } from "../../server/services/shared/clock.js";

type S = Schemas;
type Window = S["ArrivalWindow"];
const minute = 60_000;
const hour = 60 * minute;
const anchorage = { state: "AK", city: "Anchorage", zip: "99501" } as const;
const deadlineMs = { urgent: 2 * hour, routine: 24 * hour } as const;

/** A one-technician contractor working all week in Anchorage, that takes no emergencies. */
async function addContractor(t: TestServer, trade: S["TradeCode"], technicians = 1) {
  const response = await jsonRequest(t, "POST", "/api/admin/v1/contractors", {
    headers: { authorization: `Bearer ${adminToken}` },
    body: {
      ...anchorageContractor(trade, `Re-plan ${trade} ${technicians}`),
      emergency_capable: false,
      working_hours: alwaysWorking,
      capacity: { concurrent_jobs: technicians, jobs_per_day: 20 },
    },
  });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as S["Contractor"];
}

let references = 0;
/** Posts an order of the test: its status and answer, whatever they are. */
async function post(t: TestServer, key: string, job: Record<string, unknown>) {
  const body = { description: "Re-planning test.", reference_id: `rp-${++references}`, location: anchorage, ...job };
  const response = await postOrder(t, { "x-api-key": key }, body);
  return { status: response.status, answer: (await response.json()) as { order: S["OrderSummary"] } };
}

async function order(t: TestServer, key: string, job: Record<string, unknown>) {
  const { status, answer } = await post(t, key, job);
  assert.equal(status, 201, JSON.stringify(answer));
  return answer.order;
}

async function statusOf(t: TestServer, key: string, id: string): Promise<S["OrderStatus"]> {
  const response = await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}`, { headers: { "x-api-key": key } });
  return (await response.json()) as S["OrderStatus"];
}

/** The order's ETA against its deadline and its window (the customer's side of the promise). */
async function promise(t: TestServer, key: string, id: string) {
  const view = await statusOf(t, key, id);
  const eta = Date.parse(view.eta!.estimated_arrival_at);
  const window = view.arrival_window!;
  const deadline = Date.parse(view.created_at) + deadlineMs[view.urgency as keyof typeof deadlineMs];
  const inWindow = eta >= Date.parse(window.start) && eta < Date.parse(window.end);
  return { view, eta, window, onTime: eta <= deadline, inWindow };
}

/** The same promise read from the database (polling many orders through the API would meet its rate limit). */
async function storedPromise(t: TestServer, id: string) {
  const row = await t.app.services.db("orders").where({ id }).first();
  const eta = new Date(row!.eta_at!).getTime();
  const [start, end] = [row!.arrival_window_start!, row!.arrival_window_end!].map((d) => new Date(d).getTime());
  const deadline = new Date(row!.created_at).getTime() + deadlineMs.urgent;
  const window = { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
  return { eta, window, onTime: eta <= deadline, inWindow: eta >= start && eta < end };
}

interface Rescheduled {
  arrival_window: Window;
  previous_arrival_window?: Window;
  rescheduled_by: string;
}
const rescheduled = async (t: TestServer, id: string): Promise<Rescheduled[]> =>
  (
    await t.app.services
      .db("order_events")
      .where({ order_id: id, type: "order.rescheduled" })
      .orderBy("id")
      .select("data")
  ).map((row) => row.data as unknown as Rescheduled);

/** Every technician's busy intervals of the contractor, as booked: none overlaps another on one technician. */
async function assertNoOverlap(t: TestServer, contractorId: string) {
  const rows: { seat: number | null; busy_from: Date; busy_until: Date }[] = await t.app.services
    .db("contractor_bookings")
    .where({ contractor_id: contractorId })
    .whereNotNull("seat")
    .select("seat", "busy_from", "busy_until");
  for (const a of rows)
    for (const b of rows)
      if (a !== b && a.seat === b.seat)
        assert.ok(a.busy_until <= b.busy_from || b.busy_until <= a.busy_from, "a technician booked twice");
}

const sameWindow = (a: Window | null | undefined, b: Window | null | undefined) =>
  Boolean(a && b && Date.parse(a.start) === Date.parse(b.start) && Date.parse(a.end) === Date.parse(b.end));

for (const db of databases()) {
  describe(`re-planning (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db);
      key = (await t.issueKey({ account: "replanning", environment: "live" })).key;
    });
    after(() => t?.stop());

    it("moves a routine job later, by its own deadline, so that an urgent one arrives by its deadline", async () => {
      const contractor = await addContractor(t, "painting"); // six hours a job: one at a time
      const routine = await order(t, key, { trade: "painting", urgency: "routine" });
      const before = await promise(t, key, routine.id);
      const urgent = await order(t, key, { trade: "painting", urgency: "urgent" });
      const now = await promise(t, key, urgent.id);
      assert.ok(now.onTime && now.inWindow, JSON.stringify(now.view.eta));
      const moved = await promise(t, key, routine.id);
      assert.ok(moved.eta > before.eta && moved.onTime && moved.inWindow, JSON.stringify(moved.view));
      const [event, ...more] = await rescheduled(t, routine.id);
      assert.equal(more.length, 0);
      assert.equal(event.rescheduled_by, "dispatch");
      assert.ok(sameWindow(event.previous_arrival_window, before.window));
      assert.ok(sameWindow(event.arrival_window, moved.window));
      assert.deepEqual(await rescheduled(t, urgent.id), []); // booked by its deadline at once: nothing to announce
      await assertNoOverlap(t, contractor.id);
      // the contractor hears it on its own feed: the job it was offered moved
      const heard = await t.app.services
        .db("contractor_events")
        .where({ order_id: routine.id, contractor_id: contractor.id, type: "job.rescheduled" });
      assert.equal(heard.length, 1);
    });

    it("brings a job booked late by its deadline at the sweep once its technician is free", async () => {
      const contractor = await addContractor(t, "carpentry"); // four hours a job
      const first = await order(t, key, { trade: "carpentry", urgency: "urgent" });
      const late = await order(t, key, { trade: "carpentry", urgency: "urgent" }); // not calmer: the first stays
      const booked = await promise(t, key, late.id);
      assert.ok(!booked.onTime && booked.inWindow, JSON.stringify(booked.view.eta));
      assert.equal((await recordEvent(t, first.id, { status: "cancelled" })).status, 201);
      await until(async () => (await promise(t, key, late.id)).onTime, { timeoutMs: 20_000, message: "re-planned" });
      const now = await promise(t, key, late.id);
      assert.ok(now.inWindow);
      const [event] = await rescheduled(t, late.id);
      assert.equal(event.rescheduled_by, "dispatch");
      assert.ok(
        sameWindow(event.previous_arrival_window, booked.window) && sameWindow(event.arrival_window, now.window),
      );
      await assertNoOverlap(t, contractor.id);
    });

    it("moves a job already booked past its deadline out of the way of one that can still be kept", async () => {
      const contractor = await addContractor(t, "hvac"); // two and a half hours a job, one technician
      // urgent jobs until the technician is busy past a routine job's deadline (or through the urgent horizon: the
      // next is accepted unassigned), on the server's clock: all but the first are already late
      const routineDeadline = now() + deadlineMs.routine;
      const urgent: string[] = [];
      for (let busyUntil = 0; busyUntil < routineDeadline && urgent.length < 16;) {
        const { status, answer } = await post(t, key, { trade: "hvac", urgency: "urgent" });
        if (status === 202) break;
        assert.equal(status, 201, JSON.stringify(answer));
        urgent.push(answer.order.id);
        busyUntil = (await storedPromise(t, answer.order.id)).eta + 150 * minute; // the trade's expected work
      }
      const before = new Map(await Promise.all(urgent.map(async (id) => [id, await storedPromise(t, id)] as const)));
      assert.ok([...before.values()].slice(1).every((p) => !p.onTime && p.inWindow));
      const routine = await order(t, key, { trade: "hvac", urgency: "routine" });
      const kept = await promise(t, key, routine.id);
      assert.ok(kept.onTime && kept.inWindow, JSON.stringify(kept.view.eta));
      // one late urgent job made way (the one it delays least), announced; the others stay as booked
      const moved = [];
      for (const id of urgent) {
        const events = await rescheduled(t, id);
        if (!events.length) continue;
        const after = await storedPromise(t, id);
        assert.ok(after.eta > before.get(id)!.eta && after.inWindow);
        assert.equal(events[0].rescheduled_by, "dispatch");
        assert.ok(sameWindow(events[0].previous_arrival_window, before.get(id)!.window));
        moved.push(id);
      }
      assert.equal(moved.length, 1);
      assert.notEqual(moved[0], urgent[0], "the urgent job still on time never yields to calm work");
      await assertNoOverlap(t, contractor.id);
    });

    it("never moves a window the customer chose", async () => {
      await addContractor(t, "roofing"); // four hours a job
      const job = { trade: "roofing", urgency: "routine", location: anchorage };
      const quote = await jsonRequest(t, "POST", "/api/dispatch/v1/quote", {
        headers: { "x-api-key": key },
        body: job,
      });
      const [first] = ((await quote.json()) as S["Quote"]).arrival_windows ?? [];
      const chosen = await order(t, key, { ...job, arrival_window: { start: first.start, end: first.end } });
      const urgent = await order(t, key, { trade: "roofing", urgency: "urgent" });
      assert.equal((await promise(t, key, urgent.id)).onTime, false); // nobody made way
      assert.ok(sameWindow((await statusOf(t, key, chosen.id)).arrival_window, first));
      assert.deepEqual(await rescheduled(t, chosen.id), []);
    });
  });
}

const postgres = postgresDatabase();
(postgres ? describe : describe.skip)("re-planning on two instances of one Postgres", function () {
  this.timeout(180_000);
  const servers = twoInstancesOfOnePostgres();

  it("re-plans the same late jobs from both instances at once without booking a technician twice", async () => {
    const { a, b } = servers;
    const live = (await a.issueKey({ account: "replanning-two", environment: "live" })).key;
    const trades = ["plumbing", "electrical", "hvac"] as const;
    const contractors = await Promise.all(trades.map((trade) => addContractor(a, trade, 2)));
    const blockers: string[] = [];
    const late: string[] = [];
    for (const trade of trades) {
      for (let i = 0; i < 2; i++) blockers.push((await order(a, live, { trade, urgency: "urgent" })).id);
      for (let i = 0; i < 3; i++) late.push((await order(b, live, { trade, urgency: "urgent" })).id);
    }
    const lateBefore = await Promise.all(late.map((id) => storedPromise(a, id)));
    assert.ok(lateBefore.every((p) => !p.onTime && p.inWindow));
    // every blocker cancelled at once, half on each instance: both instances' dispatchers find the same late jobs
    await Promise.all(blockers.map((id, i) => recordEvent(i % 2 ? a : b, id, { status: "cancelled" })));
    a.app.services.dispatcher.nudge();
    b.app.services.dispatcher.nudge();
    await until(
      async () => (await Promise.all(late.map((id) => storedPromise(a, id)))).filter((p) => p.onTime).length >= 6,
      { timeoutMs: 30_000, message: "two late jobs per contractor re-planned" },
    );
    for (const contractor of contractors) await assertNoOverlap(a, contractor.id);
    for (const id of late) {
      const now = await storedPromise(a, id);
      assert.ok(now.inWindow, JSON.stringify(now));
      // one chain of moves: each announced move starts from the window the one before it left
      const events = await rescheduled(a, id);
      for (const [i, event] of events.entries())
        if (i) assert.ok(sameWindow(event.previous_arrival_window, events[i - 1].arrival_window));
      if (events.length) assert.ok(sameWindow(events.at(-1)!.arrival_window, now.window));
    }
  });
});
