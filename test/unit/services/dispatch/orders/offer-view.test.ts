// What a contractor sees of an offer (orders/offer-view.ts) and when it must answer (orders/offer-records.ts).
import assert from "node:assert/strict";
import type { OrderOfferRow } from "../../../../../server/db/tables/dispatch.js";
import { respondByOf } from "../../../../../server/services/dispatch/orders/offer-records.js";
import { offerView, type JobRow } from "../../../../../server/services/dispatch/orders/offer-view.js";

const at = new Date("2026-11-23T15:00:00.000Z");
const job: JobRow = {
  id: "ord_1",
  trade: "plumbing",
  urgency: "urgent",
  description: "Leak.",
  location: { state: "TX", city: "Austin", zip: "78701", address: "500 Congress Ave", name: "Front desk" },
  state: "TX",
  status: "pending_dispatch",
  quoted_cost_cents: 38_400,
  arrival_window_start: new Date("2026-11-23T16:00:00.000Z"),
  arrival_window_end: new Date("2026-11-23T18:00:00.000Z"),
  nte_cents: 45_000,
};
const offer = (status: OrderOfferRow["status"]): OrderOfferRow => ({
  id: "ofr_1",
  order_id: "ord_1",
  contractor_id: "ctr_1",
  account: "acme",
  environment: "live",
  status,
  created_at: at,
  deadline_at: new Date(at.getTime() + 15 * 60_000),
  responded_at: status === "offered" ? null : at,
  decline_reason: status === "declined" ? "too_far" : null,
  note: null,
  quoted_cost_cents: job.quoted_cost_cents,
  nte_cents: job.nte_cents,
  arrival_window_start: job.arrival_window_start,
  arrival_window_end: job.arrival_window_end,
});

describe("offers view", () => {
  describe("offerView()", () => {
    for (const status of ["offered", "declined", "expired", "withdrawn"] as const)
      it(`shows a ${status} offer's city, state and ZIP, not the street or site name`, () => {
        const view = offerView(offer(status), job, false);
        assert.deepEqual(view.job.location, { state: "TX", city: "Austin", zip: "78701" });
      });
    it("shows the whole location and the order's status while the contractor holds the job", () => {
      const view = offerView(offer("accepted"), { ...job, status: "en_route" }, true);
      assert.deepEqual([view.job.location, view.job.status], [job.location, "en_route"]);
    });
    for (const status of ["accepted", "declined", "expired", "withdrawn"] as const)
      it(`shows an ${status} offer of a job the contractor does not hold as offered: no street, pending_dispatch`, () => {
        const view = offerView(offer(status), { ...job, status: "completed" }, false);
        assert.deepEqual(
          [view.job.location, view.job.status],
          [{ state: "TX", city: "Austin", zip: "78701" }, "pending_dispatch"],
        );
      });
    it("never carries the customer's account or the contractor's id", () => {
      const text = JSON.stringify(offerView(offer("accepted"), job, true));
      assert.ok(!text.includes("acme") && !text.includes("ctr_1"), text);
    });
    it("gives the deadline, the answer and the booked window in the job's offset", () => {
      const view = offerView(offer("declined"), job, false);
      assert.equal(view.respond_by, "2026-11-23T15:15:00.000Z");
      assert.equal(view.decline_reason, "too_far");
      assert.deepEqual(view.job.arrival_window, {
        start: "2026-11-23T10:00:00-06:00",
        end: "2026-11-23T12:00:00-06:00",
      });
    });
    it("shows the NTE and the job's time zone, the zone of the window's offsets", () => {
      const view = offerView(offer("offered"), job, false);
      assert.deepEqual([view.job.nte_cents, view.job.time_zone], [45_000, "America/Chicago"]);
    });
    it("shows an offer not held on the terms it was made on, not the order's next contractor's", () => {
      const reoffered = {
        ...job,
        quoted_cost_cents: 52_000,
        nte_cents: 60_000,
        arrival_window_start: new Date("2026-11-23T20:00:00.000Z"),
        arrival_window_end: new Date("2026-11-23T22:00:00.000Z"),
      };
      const declined = offerView(offer("declined"), reoffered, false);
      assert.deepEqual(
        [declined.job.quoted_cost_cents, declined.job.nte_cents, declined.job.arrival_window],
        [38_400, 45_000, { start: "2026-11-23T10:00:00-06:00", end: "2026-11-23T12:00:00-06:00" }],
      );
      const held = offerView(offer("accepted"), reoffered, true); // a held job's window moves with a reschedule
      assert.deepEqual(
        [held.job.quoted_cost_cents, held.job.nte_cents, held.job.arrival_window?.start],
        [52_000, 60_000, "2026-11-23T14:00:00-06:00"],
      );
      const legacy = { ...offer("declined"), quoted_cost_cents: null, arrival_window_start: null };
      assert.deepEqual(
        [
          offerView(legacy, reoffered, false).job.quoted_cost_cents,
          offerView(legacy, reoffered, false).job.arrival_window,
        ],
        [null, null],
      );
    });
  });

  describe("respondByOf()", () => {
    const deadlines = { emergency: 5, urgent: 15, routine: 60, scheduled: 240 };
    for (const [urgency, minutes] of Object.entries(deadlines))
      it(`gives a ${urgency} job ${String(minutes)} minutes`, () => {
        const by = respondByOf(deadlines, urgency as keyof typeof deadlines, at);
        assert.equal(by.getTime() - at.getTime(), minutes * 60_000);
      });
  });
});
