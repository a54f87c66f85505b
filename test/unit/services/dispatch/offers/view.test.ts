// What a contractor sees of an offer (offers/view.ts) and when it must answer (offers/records.ts).
import assert from "node:assert/strict";
import type { OrderOfferRow } from "../../../../../server/db/tables/dispatch.js";
import { respondByOf } from "../../../../../server/services/dispatch/offers/records.js";
import { offerView, type JobRow } from "../../../../../server/services/dispatch/offers/view.js";

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
});

describe("offers view", () => {
  describe("offerView()", () => {
    for (const status of ["offered", "declined", "expired", "withdrawn"] as const)
      it(`shows a ${status} offer's city, state and ZIP, not the street or site name`, () => {
        assert.deepEqual(offerView(offer(status), job).job.location, { state: "TX", city: "Austin", zip: "78701" });
      });
    it("shows the whole location once accepted", () => {
      assert.deepEqual(offerView(offer("accepted"), job).job.location, job.location);
    });
    it("never carries the customer's account or the contractor's id", () => {
      const text = JSON.stringify(offerView(offer("accepted"), job));
      assert.ok(!text.includes("acme") && !text.includes("ctr_1"), text);
    });
    it("gives the deadline, the answer and the booked window in the job's offset", () => {
      const view = offerView(offer("declined"), job);
      assert.equal(view.respond_by, "2026-11-23T15:15:00.000Z");
      assert.equal(view.decline_reason, "too_far");
      assert.deepEqual(view.job.arrival_window, {
        start: "2026-11-23T10:00:00-06:00",
        end: "2026-11-23T12:00:00-06:00",
      });
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
