// Evals' window_adherence_rate from what happened: of the live orders with a booked arrival window whose contractor
// arrived (the first step to on_site), the share that arrived inside the window; early counts as outside, an order
// not yet on site does not count (sandbox orders never count in evals). The booked windows are moved in the database around the
// recorded arrival, so the figures do not depend on the hour the suite runs at. On every test database.
import assert from "node:assert/strict";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder, recordEvent } from "../fixtures/orders.js";
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
      await createdAt(missed.id, Date.now() - span - 60_000); // past its deadline, never on site
      const figure = await metric();
      assert.equal(figure.provenance, "measurement");
      assert.equal(figure.sample_size, 3);
      assert.equal(figure.value, 0.3333);
    });
  });
}
