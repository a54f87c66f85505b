// Which booked jobs re-planning may move (orders/make-way.ts dayLedger): a job still to come whose technician has not
// set off by its status (en_route is the contractor's report), whose window the dispatch chose. Our estimate of the
// departure (arrival less a drive from geography, which may be hours) does not decide it.
import assert from "node:assert/strict";
import type { Contractor } from "../../../../server/services/dispatch/contractors.js";
import { dayLedger, type DayRead } from "../../../../server/services/dispatch/orders/make-way.js";
import { alwaysWorking } from "../../../../server/services/dispatch/working-hours.js";

const now = Date.parse("2026-12-01T18:00:00Z");
const minute = 60_000;

const contractor = {
  id: "ctr_a",
  base_response_minutes: 60,
  time_zone: "America/Anchorage",
  working_hours: alwaysWorking,
  capacity: { concurrent_jobs: 1, jobs_per_day: 8 },
} as unknown as Contractor;

/** A routine job booked to arrive an hour from now, its departure planned three hours before its arrival. */
const read = (over: Partial<DayRead> = {}): DayRead => ({
  order_id: "ord_1",
  contractor_id: "ctr_a",
  seat: 0,
  local_day: "2026-12-01",
  day_seat: 0,
  busy_from_ms: now - 120 * minute,
  busy_until_ms: now + 180 * minute,
  arrival_ms: now + 60 * minute,
  status: "dispatched",
  urgency: "routine",
  created_ms: now - 240 * minute,
  window_fixed: false,
  trade: "plumbing",
  state: "AK",
  location: { state: "AK", city: "Anchorage", zip: "99501", address: "1 Main St" },
  estimated_response_minutes: 60,
  ...over,
});

const movable = (over: Partial<DayRead>) => dayLedger(contractor, [read(over)], now).jobs[0].movable;

describe("re-planning: which booked jobs may move", () => {
  it("moves a job still to come whose technician has not reported setting off, though our departure estimate passed", () => {
    assert.equal(movable({}), true);
    assert.equal(movable({ status: "pending_dispatch" }), true);
  });

  it("never moves a job whose technician set off, whose arrival has come, or whose window is the customer's", () => {
    assert.equal(movable({ status: "en_route" }), false);
    assert.equal(movable({ status: "on_site" }), false);
    assert.equal(movable({ arrival_ms: now }), false);
    assert.equal(movable({ window_fixed: true }), false);
    assert.equal(movable({ seat: null }), false); // finished: it keeps only its day seat
  });
});
