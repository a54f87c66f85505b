// The dispatch-day figures (bench/dispatch-day/figures.ts): double-bookings counted from a timeline alone, and
// the per-urgency shares measured against each urgency's fulfilment deadline.
import assert from "node:assert/strict";
import { doubleBookings, urgencyFigures } from "../../../bench/dispatch-day/figures.js";
import type { Outcome } from "../../../bench/dispatch-day/simulate.js";
import type { DayOrder } from "../../../bench/dispatch-day/world.js";
import type { Contractor } from "../../../server/services/dispatch/contractors.js";

const t0 = Date.parse("2026-12-01T14:00:00Z"); // 08:00 in Chicago
const min = 60_000;
const contractor = {
  id: "ctr_a",
  time_zone: "America/Chicago",
  capacity: { concurrent_jobs: 1, jobs_per_day: 2 },
} as Contractor;

function order(index: number, urgency: DayOrder["urgency"] = "routine"): DayOrder {
  const location = { state: "TX" as const, city: "Austin", zip: "78701", address: "1 Main St" };
  return {
    index,
    at: t0,
    trade: "plumbing",
    urgency,
    location,
    nteFactor: null,
    travelMinutes: 20,
    workMinutes: 60,
    invoiceFactor: 1,
  };
}

/** An order assigned at `assignedAt` into a window starting `start` minutes after t0, done `done` minutes after. */
function booked(index: number, start: number, done?: number, assignedAt = t0): Outcome {
  const o = order(index);
  const window = { start: t0 + start * min, end: t0 + (start + 120) * min };
  const job = {
    order: o,
    contractorId: "ctr_a",
    window,
    readyAt: window.start,
    ...(done === undefined ? {} : { completedAt: t0 + done * min }),
  };
  return { order: o, nteCents: null, assignedAt, job, held: false, escalated: false };
}

describe("dispatch-day figures", () => {
  describe("doubleBookings()", () => {
    const cases: { what: string; outcomes: Outcome[]; expected: { concurrent: number; daily: number } }[] = [
      {
        what: "two jobs in separate windows",
        outcomes: [booked(1, 0, 60), booked(2, 120, 180)],
        expected: { concurrent: 0, daily: 0 },
      },
      {
        what: "two jobs in one window of a one-crew contractor",
        outcomes: [booked(1, 0, 60), booked(2, 0, 100)],
        expected: { concurrent: 1, daily: 0 },
      },
      {
        what: "a second job booked into the window after the first is done (its seat freed)",
        outcomes: [booked(1, 0, 60), booked(2, 0, 110, t0 + 70 * min)],
        expected: { concurrent: 0, daily: 0 },
      },
      {
        what: "three jobs in a day of two",
        outcomes: [booked(1, 0, 60), booked(2, 120, 180), booked(3, 240, 300)],
        expected: { concurrent: 0, daily: 1 },
      },
    ];
    for (const { what, outcomes, expected } of cases)
      it(`counts ${JSON.stringify(expected)} for ${what}`, () => {
        assert.deepEqual(doubleBookings(outcomes, [contractor]), expected);
      });

    it("holds a job without a window from its assignment until it is done", () => {
      const unwindowed = (index: number, done: number): Outcome => {
        const o = order(index);
        const job = { order: o, contractorId: "ctr_a", window: null, readyAt: t0, completedAt: t0 + done * min };
        return { order: o, nteCents: null, assignedAt: t0, job, held: false, escalated: false };
      };
      assert.deepEqual(doubleBookings([unwindowed(1, 60), unwindowed(2, 180)], [contractor]), {
        concurrent: 1,
        daily: 0,
      });
    });
  });

  describe("urgencyFigures()", () => {
    it("measures assignment and arrival against the urgency's deadline, over all of its orders", () => {
      const fast: Outcome = { ...booked(1, 0, 60), order: order(1, "emergency") };
      fast.job = { ...fast.job!, order: fast.order, onSiteAt: t0 + 25 * min };
      const late: Outcome = {
        order: order(2, "emergency"),
        nteCents: null,
        assignedAt: t0 + 45 * min,
        held: false,
        escalated: true,
      };
      const held: Outcome = { order: order(3, "emergency"), nteCents: 100, held: true, escalated: true };
      const [emergency] = urgencyFigures([fast, late, held]);
      assert.equal(emergency.orders, 3);
      assert.equal(emergency.assignedInDeadline, 1 / 3);
      assert.equal(emergency.onSiteInDeadline, 1 / 3);
      assert.equal(emergency.windowAdherence, 1);
      assert.deepEqual([emergency.p50AssignMinutes, emergency.p95AssignMinutes], [0, 45]);
      assert.deepEqual([emergency.held, emergency.escalated, emergency.neverAssigned], [1, 2, 0]);
    });
  });
});
