// Evals' measured promises from what happened, on every test database (sandbox orders never count): window
// adherence (arrivals inside the booked window; early counts as outside), on site within the deadline, and the plan's
// KPIs (the ETA inside the window at booking, the unassigned past their deadline, the drives booked, the re-plans).
// Windows, creations and first promises are moved in the database around what was recorded, and the plan's suite
// pins a weekday morning in Anchorage, so the figures do not depend on the hour the suite runs at.
import assert from "node:assert/strict";
import type { FactData } from "../../server/db/tables/events.js";
import type { EventType } from "../../server/generated/events.js";
import { placeOf, travelMinutes, travelReady } from "../../server/services/dispatch/travel.js";
import { now } from "../../server/services/shared/clock.js";
import { anchorageContractor, anchorageWindow, orderRequest } from "../fixtures/requests.js";
import { postOrder, recordEvent } from "../fixtures/orders.js";
import { anchorageWeekdayMorning, installBusinessTime } from "../helpers/business-time.js";
import { admin, alaskaOrder, answerOffer, call, contractorKey, offeredOrder } from "../helpers/contractors.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

const hour = 3_600_000;

interface Metric {
  value: number | null;
  sample_size: number;
  provenance: string;
}

for (const db of databases()) {
  describe(`evals: window adherence (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    before(async () => {
      t = await startTestServer(db);
    });
    after(() => t?.stop());

    const adherence = async () => {
      const response = await t.fetch(`${t.url}/api/dispatch/analytics/evals?period=rolling_7d`);
      assert.equal(response.status, 200);
      return ((await response.json()) as { metrics: { window_adherence_rate: Metric }; methodology: string }).metrics
        .window_adherence_rate;
    };
    /** An assigned order walked to on_site by the operator; its arrival time as recorded. */
    const arrive = async (key: string, reference: string) => {
      const created = await postOrder(t, { "x-api-key": key }, { ...orderRequest, reference_id: reference });
      assert.equal(created.status, 201);
      const id = ((await created.json()) as { order: { id: string } }).order.id;
      for (const status of ["dispatched", "en_route", "on_site"])
        assert.equal((await recordEvent(t, id, { status })).status, 201, status);
      const [event] = await t.app.services.db("order_events").where({ order_id: id, status: "on_site" });
      return { id, arrivedAt: new Date(event.at).getTime() };
    };
    const bookWindow = (id: string, start: number) =>
      t.app.services
        .db("orders")
        .where({ id })
        .update({ arrival_window_start: new Date(start), arrival_window_end: new Date(start + 2 * hour) });

    it("is unavailable with no arrivals, then counts live arrivals inside their window, early as outside", async () => {
      assert.deepEqual(await adherence(), {
        value: null,
        unit: "ratio",
        provenance: "unavailable",
        sample_size: 0,
        note: "No records in the window.",
      });
      const live = (await t.issueKey({ account: "adherence", environment: "live" })).key;
      const inside = await arrive(live, "adh-inside");
      await bookWindow(inside.id, inside.arrivedAt - hour);
      const early = await arrive(live, "adh-early");
      await bookWindow(early.id, early.arrivedAt + hour);
      const atEnd = await arrive(live, "adh-at-end");
      await bookWindow(atEnd.id, atEnd.arrivedAt - 2 * hour); // the end is not inside
      // Assigned, not yet on site: no arrival to judge.
      assert.equal(
        (await postOrder(t, { "x-api-key": live }, { ...orderRequest, reference_id: "adh-wait" })).status,
        201,
      );
      const metric = await adherence();
      assert.equal(metric.provenance, "measurement");
      assert.equal(metric.sample_size, 3);
      assert.equal(metric.value, 0.3333);
    });
  });
}

for (const db of databases()) {
  describe(`evals: on site within deadline (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    before(async () => {
      t = await startTestServer(db);
    });
    after(() => t?.stop());

    const metric = async () => {
      const response = await t.fetch(`${t.url}/api/dispatch/analytics/evals?period=rolling_7d`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as {
        metrics: { on_site_within_deadline_rate: Metric };
        methodology: string;
      };
      assert.match(body.methodology, /on_site_within_deadline_rate: orders whose contractor was on site/);
      return body.metrics.on_site_within_deadline_rate;
    };
    const create = async (key: string, reference: string) => {
      const created = await postOrder(t, { "x-api-key": key }, { ...orderRequest, reference_id: reference });
      assert.equal(created.status, 201);
      return ((await created.json()) as { order: { id: string; urgency: string } }).order;
    };
    /** Moves an order's creation back, so its deadline (by its urgency) lies before or after what happened. */
    const createdAt = (id: string, at: number) =>
      t.app.services
        .db("orders")
        .where({ id })
        .update({ created_at: new Date(at) });
    const deadlineMs: Record<string, number> = {
      emergency: hour / 2,
      urgent: 2 * hour,
      routine: 24 * hour,
      scheduled: 72 * hour,
    };

    it("counts arrivals by the urgency's deadline over orders on site or past it; waiting ones within it are not judged", async () => {
      const live = (await t.issueKey({ account: "deadline", environment: "live" })).key;
      const onTime = await create(live, "dl-on-time");
      const late = await create(live, "dl-late");
      const missed = await create(live, "dl-missed");
      await create(live, "dl-waiting"); // assigned, within its deadline: not judged yet
      for (const order of [onTime, late])
        for (const status of ["dispatched", "en_route", "on_site"])
          assert.equal((await recordEvent(t, order.id, { status })).status, 201, status);
      const arrived = async (id: string) => {
        const event = await t.app.services.db("order_events").where({ order_id: id, status: "on_site" }).first("at");
        return new Date(event!.at).getTime();
      };
      const span = deadlineMs[onTime.urgency];
      await createdAt(late.id, (await arrived(late.id)) - span - 60_000); // on site a minute after its deadline
      await createdAt(missed.id, now() - span - 60_000); // past its deadline, never on site
      const figure = await metric();
      assert.equal(figure.provenance, "measurement");
      assert.equal(figure.sample_size, 3);
      assert.equal(figure.value, 0.3333);
    });
  });
}

/** The metrics of the live window, as a client reads them. */
async function evalsMetrics(t: TestServer): Promise<Record<string, Metric & { unit: string }>> {
  const response = await t.fetch(`${t.url}/api/dispatch/analytics/evals?period=rolling_7d`);
  assert.equal(response.status, 200);
  return ((await response.json()) as { metrics: Record<string, Metric & { unit: string }> }).metrics;
}

for (const db of databases()) {
  describe(`evals: the plan's KPIs (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let restoreClock: (() => void) | undefined;
    before(async () => {
      restoreClock = installBusinessTime(anchorageWeekdayMorning); // the Anchorage plumbers' day, whatever the hour
      t = await startTestServer(db, { DISPATCHER_INTERVAL_MS: "60000" }); // no sweep re-plans under the test
    });
    after(async () => {
      await t?.stop();
      restoreClock?.();
    });

    /** An Anchorage plumber with one technician, so a second job cannot arrive in the window of its first. */
    const oneTechnician = async (name: string, hourly: number) => {
      const body = {
        ...anchorageContractor("plumbing", name),
        hourly_rate_cents: hourly,
        capacity: { concurrent_jobs: 1, jobs_per_day: 8 },
      };
      const created = await call(t, "POST", "/api/admin/v1/contractors", admin, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id as string;
      return { id, key: (await contractorKey(t, id)).key };
    };
    const answer = async (key: string, offerId: string, verb: "accept" | "decline") => {
      const body = verb === "decline" ? { reason: "no_capacity" } : undefined;
      const answered = await answerOffer(t, key, offerId, verb, body);
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
    };
    const openOffer = async (orderId: string) =>
      (await t.app.services.db("order_offers").where({ order_id: orderId, status: "offered" }).first())!;
    const events = (orderId: string, type: EventType) =>
      t.app.services.db("order_events").where({ order_id: orderId, type }).orderBy("id");
    /** Rewrites an order.assigned event's ETA (a promise written before ETAs were kept inside the window). */
    const setEta = async (event: { id: number; data: FactData | null }, at: (window: { end: string }) => number) => {
      const data = {
        ...event.data!,
        eta: { ...event.data!.eta!, estimated_arrival_at: new Date(at(event.data!.arrival_window!)).toISOString() },
      };
      await t.app.services
        .db("order_events")
        .where({ id: event.id })
        .update({ data: JSON.stringify(data) });
    };
    /** Moves an order's creation four days back: past its fulfilment deadline whatever its urgency. */
    const pastDeadline = (id: string) =>
      t.app.services
        .db("orders")
        .where({ id })
        .update({ created_at: new Date(now() - 4 * 24 * hour) });

    it("measures the ETA at booking, the unassigned, the drives planned and the re-plans, each with its sample", async () => {
      const empty = await evalsMetrics(t);
      for (const name of [
        "eta_in_window_at_booking_rate",
        "unassigned_rate",
        "drive_minutes_total",
        "drive_minutes_mean",
        "replans_per_order",
      ])
        assert.deepEqual(
          [empty[name].value, empty[name].provenance, empty[name].sample_size],
          [null, "unavailable", 0],
        );

      const cheap = await oneTechnician("KPI Cheap Plumbing", 8000);
      const dear = await oneTechnician("KPI Dear Plumbing", 12_000);
      const buyer = (await t.issueKey({ account: "kpis", environment: "live" })).key;
      const sandbox = (await t.issueKey({ account: "kpis", environment: "test" })).key;

      // x1: declined by the cheap plumber, re-assigned to the dear one in the same window (1 re-plan)
      const x1 = await offeredOrder(t, buyer, "kpi-x1");
      assert.equal(x1.offer.contractor_id, cheap.id);
      await answer(cheap.key, x1.offer.id, "decline");
      assert.equal((await openOffer(x1.orderId)).contractor_id, dear.id);
      // x2: declined too; the dear plumber's one technician is in x1's window, so the dispatch moves it (2 re-plans)
      const x2 = await offeredOrder(t, buyer, "kpi-x2");
      assert.equal(x2.offer.contractor_id, cheap.id);
      await answer(cheap.key, x2.offer.id, "decline");
      assert.deepEqual(
        (await events(x2.orderId, "order.rescheduled")).map((e) => e.data?.rescheduled_by),
        ["dispatch"],
      );
      // x3: accepted, then moved by the customer (not a re-plan); past its deadline, assigned
      const x3 = await offeredOrder(t, buyer, "kpi-x3");
      await answer(cheap.key, x3.offer.id, "accept");
      const moved = await call(
        t,
        "POST",
        `/api/dispatch/v1/orders/${x3.orderId}/reschedule`,
        { "x-api-key": buyer },
        {
          arrival_window: anchorageWindow(now(), "14"),
        },
      );
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      await pastDeadline(x3.orderId);
      // x4: offered, waiting for an answer (no re-plan)
      await offeredOrder(t, buyer, "kpi-x4");
      // nobody in Anchorage does electrical work: u1 past its deadline unassigned, u2 the same but cancelled (counted
      // in neither), u3 within its deadline (not judged yet)
      const unassigned = async (reference: string) => {
        const created = await call(
          t,
          "POST",
          "/api/dispatch/v1/order",
          { "x-api-key": buyer },
          {
            ...alaskaOrder(reference),
            trade: "electrical",
          },
        );
        assert.equal(created.status, 202, JSON.stringify(created.body));
        return (created.body.order as { id: string }).id;
      };
      const [u1, u2] = [await unassigned("kpi-u1"), await unassigned("kpi-u2"), await unassigned("kpi-u3")];
      const cancel = { reason: "customer_request" };
      assert.equal(
        (await call(t, "POST", `/api/dispatch/v1/orders/${u2}/cancel`, { "x-api-key": buyer }, cancel)).status,
        200,
      );
      for (const id of [u1, u2]) await pastDeadline(id);
      // a sandbox order: never counted
      assert.equal(
        (await call(t, "POST", "/api/dispatch/v1/order", { "x-api-key": sandbox }, alaskaOrder("kpi-test"))).status,
        201,
      );

      // the promise at booking is the first order.assigned's: x1's ETA at its window's end (inside), x3's a minute
      // after it (outside); x2's re-assignment, after the window, does not count
      const [x1First] = await events(x1.orderId, "order.assigned");
      await setEta(x1First, (window) => Date.parse(window.end));
      const [x3First] = await events(x3.orderId, "order.assigned");
      await setEta(x3First, (window) => Date.parse(window.end) + 60_000);
      const [, x2Reassigned] = await events(x2.orderId, "order.assigned");
      await setEta(x2Reassigned, (window) => Date.parse(window.end) + hour);

      await travelReady();
      const contractor = (await t.app.services.contractors.get(cheap.id))!;
      const drive = travelMinutes({ contractor }, placeOf(alaskaOrder("drive").location));
      const m = await evalsMetrics(t);
      const figure = (name: string) => [m[name].value, m[name].unit, m[name].sample_size, m[name].provenance];
      assert.deepEqual(figure("eta_in_window_at_booking_rate"), [0.75, "ratio", 4, "measurement"]);
      assert.deepEqual(figure("unassigned_rate"), [0.5, "ratio", 2, "measurement"]);
      // x1, x2 (re-assigned), x3 (moved) and x4 hold a booking each, all from the same base to the same ZIP
      assert.deepEqual(figure("drive_minutes_total"), [4 * drive, "minutes", 4, "measurement"]);
      assert.deepEqual(figure("drive_minutes_mean"), [drive, "minutes", 4, "measurement"]);
      assert.deepEqual(figure("replans_per_order"), [0.75, "replans", 4, "measurement"]);
    });
  });
}
