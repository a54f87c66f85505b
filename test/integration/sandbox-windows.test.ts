// The sandbox walks jobs inside their booked windows (sandbox/walk-due.ts): on the account's frozen clock, pinned
// to a Monday 09:00 in Anchorage, orders booked into the 12:00, 16:00 and evening 20:00 windows set off in time
// to arrive at the window's start, report an ETA inside the window (not flagged) and are on site inside it (at or
// after its start, before its end), whatever the booked hour; `late_arrival` is the only scenario that arrives
// after its window's end (its ETA flagged). A decline_then_reassign order keeps its price and announces a moved
// window (order.rescheduled by dispatch), then arrives inside the window it ends in. Each order is walked by
// `to: next_step` alone. On every test database.
import assert from "node:assert/strict";
import type { components } from "../../sdk/generated/openapi.js";
import { anchorageContractor, anchorageWindow, orderRequest } from "../fixtures/requests.js";
import { admin, call } from "../helpers/contractors.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

type Event = components["schemas"]["DispatchEvent"];
type Window = components["schemas"]["ArrivalWindow"];
const v1 = "/api/dispatch/v1";
/** Monday 2026-11-23, 09:00 in Anchorage (AKST, -09:00). */
const pinned = Date.parse("2026-11-23T09:00:00-09:00");

for (const db of databases()) {
  describe(`sandbox walks inside the booked window (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;

    /** A test key of `account`, whose sandbox clock is frozen at the pinned instant. */
    async function pinnedKey(account: string) {
      const issued = (await t.issueKey({ account, environment: "test" })).key;
      const frozen = await call(t, "POST", `${v1}/sandbox/clock/advance`, { "x-api-key": issued }, { by: "0s" });
      assert.equal(frozen.status, 200, JSON.stringify(frozen.body));
      await t.app.services
        .db("sandbox_clocks")
        .where({ account })
        .update({ frozen_at: new Date(pinned) });
      t.app.services.changes.announce("sandbox_clocks"); // a write past the services: PGlite hears only announcements
      return issued;
    }

    before(async () => {
      t = await startTestServer(db, { SANDBOX_STEP_MS: "60000" });
      // two plumbers: the evening window holds a happy and a late job at once, and a declined job has a second
      for (const name of ["Anchorage Window Plumbing", "Anchorage Window Plumbing Two"]) {
        const body = { ...anchorageContractor("plumbing", name), capacity: { concurrent_jobs: 3, jobs_per_day: 8 } };
        const created = await call(t, "POST", "/api/admin/v1/contractors", admin, body);
        assert.equal(created.status, 201, JSON.stringify(created.body));
      }
    });
    after(() => t?.stop());

    /** A routine test order booked into `window`, walking `scenario`. */
    async function booked(reference: string, window: Window, scenario: string) {
      const body = {
        ...orderRequest,
        location: { state: "AK", city: "Anchorage", zip: "99501", address: "1 Main St" },
        urgency: "routine",
        nte_cents: 100_000,
        reference_id: reference,
        arrival_window: window,
        sandbox_scenario: scenario,
      };
      const created = await call(t, "POST", `${v1}/order`, { "x-api-key": key }, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const order = created.body.order as { id: string; arrival_window: Window; created_at: string };
      assert.equal(Date.parse(order.created_at), pinned, "made on the pinned clock");
      assert.equal(Date.parse(order.arrival_window.start), Date.parse(window.start));
      return order.id;
    }

    /** Advances the clock step by step until nothing is scheduled; each order's events. */
    async function walkAll(ids: string[]) {
      for (let stop = 0; stop < 200; stop++) {
        const advanced = await call(
          t,
          "POST",
          `${v1}/sandbox/clock/advance`,
          { "x-api-key": key },
          { to: "next_step" },
        );
        if (advanced.status === 409) break;
        assert.equal(advanced.status, 200, JSON.stringify(advanced.body));
      }
      const events = new Map<string, Event[]>();
      for (const id of ids) {
        const page = await call(t, "GET", `${v1}/orders/${id}/events`, { "x-api-key": key });
        events.set(id, (page.body as { items: Event[] }).items);
      }
      return events;
    }

    const stepAt = (events: Event[], status: string) =>
      events.find((e) => e.type === "order.status_changed" && e.data.status === status)!;

    it("happy_path arrives inside the 12:00, 16:00 and 20:00 windows, late_arrival after the 20:00 window's end", async () => {
      key = await pinnedKey("sandbox-windows");
      const windows = ["12", "16", "20"].map((hh) => anchorageWindow(pinned, hh));
      const happy = await Promise.all(windows.map((w, i) => booked(`window-happy-${i}`, w, "happy_path")));
      const late = await booked("window-late", windows[2], "late_arrival");
      const walked = await walkAll([...happy, late]);

      for (const [i, id] of happy.entries()) {
        const events = walked.get(id)!;
        const [start, end] = [Date.parse(windows[i].start), Date.parse(windows[i].end)];
        assert.equal(events.at(-1)!.type, "order.completed", `${id}: walked to completed`);
        const setOff = stepAt(events, "en_route");
        const onSite = stepAt(events, "on_site");
        const estimate = events.find((e) => e.type === "order.eta_updated" && e.data.status === "en_route")!;
        const eta = Date.parse(estimate.data.eta!.estimated_arrival_at);
        const arrived = Date.parse(onSite.data.at);
        const where = `${windows[i].start}: set off ${setOff.data.at}, ETA ${estimate.data.eta!.estimated_arrival_at}, on site ${onSite.data.at}`;
        assert.ok(Date.parse(setOff.data.at) < start, `sets off before the window: ${where}`);
        assert.ok(eta >= start && eta < end, `ETA inside: ${where}`);
        assert.equal(estimate.data.eta!.eta_outside_window, false, where);
        assert.equal(Date.parse(estimate.data.arrival_window!.start), start, where);
        assert.ok(arrived >= start && arrived < end, `on site inside: ${where}`);
        assert.ok(Date.parse(stepAt(events, "completed").data.at) > arrived, where);
      }

      const events = walked.get(late)!;
      const end = Date.parse(windows[2].end);
      assert.equal(events.at(-1)!.type, "order.completed");
      const estimate = events.find((e) => e.type === "order.eta_updated" && e.data.status === "en_route")!;
      assert.ok(Date.parse(estimate.data.eta!.estimated_arrival_at) > end, "a late ETA");
      assert.equal(estimate.data.eta!.eta_outside_window, true);
      assert.ok(Date.parse(stepAt(events, "on_site").data.at) > end, "on site after the window's end");
    });

    it("decline_then_reassign: order.assigned carries the window and the kept price, order.rescheduled (dispatch) when the window moved, and the walk arrives inside the final window", async () => {
      key = await pinnedKey("sandbox-windows-reassign");
      const window = anchorageWindow(pinned, "14");
      const id = await booked("window-reassign", window, "decline_then_reassign");
      const first = (await call(t, "GET", `${v1}/orders/${id}`, { "x-api-key": key })).body as {
        quoted_cost_cents: number;
      };
      const events = (await walkAll([id])).get(id)!;
      const order = (await call(t, "GET", `${v1}/orders/${id}`, { "x-api-key": key })).body as {
        quoted_cost_cents: number;
        arrival_window: Window;
      };
      assert.equal(order.quoted_cost_cents, first.quoted_cost_cents, "the customer's price kept");
      const reassigned = events.find((e) => e.type === "order.assigned" && e.data.reassigned)!;
      assert.equal(reassigned.data.quoted_cost_cents, first.quoted_cost_cents);
      const next = events[events.indexOf(reassigned) + 1];
      const moved = Date.parse(reassigned.data.arrival_window!.start) !== Date.parse(window.start);
      if (moved) {
        assert.deepEqual([next.type, next.data.rescheduled_by], ["order.rescheduled", "dispatch"]);
        assert.deepEqual(next.data.arrival_window, reassigned.data.arrival_window);
        const previous = next.data.previous_arrival_window!;
        assert.deepEqual(
          [Date.parse(previous.start), Date.parse(previous.end)],
          [Date.parse(window.start), Date.parse(window.end)],
        );
      } else assert.notEqual(next.type, "order.rescheduled");
      const arrived = Date.parse(stepAt(events, "on_site").data.at);
      const [start, end] = [Date.parse(order.arrival_window.start), Date.parse(order.arrival_window.end)];
      assert.ok(
        arrived >= start && arrived < end,
        `on site ${stepAt(events, "on_site").data.at} inside ${order.arrival_window.start}`,
      );
      assert.equal(events.at(-1)!.type, "order.completed");
    });
  });
}
