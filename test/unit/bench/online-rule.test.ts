// Issue 42's reference rule on the bench's field (bench/dispatch-day/online-rule.ts): each minute the most urgent open
// order takes the free technician arriving earliest by its deadline, within its NTE, the contractor's working hours
// and day seats; bound by the drive alone, or by the contractor's response as well.
import assert from "node:assert/strict";
import { runOnlineRule } from "../../../bench/dispatch-day/online-rule.js";
import type { World } from "../../../bench/dispatch-day/simulate.js";
import type { DayOrder } from "../../../bench/dispatch-day/world.js";
import type { Contractor } from "../../../server/services/dispatch/contractors.js";
import { alwaysWorking, fullWeek, weekdayHours } from "../../../server/services/dispatch/working-hours.js";

const t0 = Date.parse("2026-12-01T16:00:00Z"); // 10:00 in Chicago, a Tuesday
const min = 60_000;

function contractor(id: string, over: Partial<Contractor> = {}): Contractor {
  return {
    id,
    trades: ["plumbing"],
    service_areas: [{ state: "IL" }],
    hourly_rate_cents: 10_000,
    base_response_minutes: 60, // 30 for urgent work
    emergency_capable: true,
    time_zone: "America/Chicago",
    working_hours: alwaysWorking,
    capacity: { concurrent_jobs: 1, jobs_per_day: 8 },
    ...over,
  } as unknown as Contractor;
}

function order(index: number, urgency: DayOrder["urgency"], at = t0, over: Partial<DayOrder> = {}): DayOrder {
  return {
    index,
    at,
    trade: "plumbing",
    urgency,
    location: { state: "IL", city: "Chicago", zip: "60601", address: "1 Main St" },
    nteFactor: null,
    travelMinutes: 20,
    workMinutes: 60,
    invoiceFactor: 1,
    ...over,
  };
}

const world = (contractors: Contractor[], orders: DayOrder[], nte = new Map<DayOrder, number | null>()): World => ({
  contractors,
  orders,
  nte,
});
const onSite = (w: World, responseBound = false) =>
  runOnlineRule(w, { responseBound }).outcomes.map((o) =>
    o.job?.onSiteAt === undefined ? null : (o.job.onSiteAt - t0) / min,
  );

describe("the online rule (issue 42's reference)", () => {
  it("gives a free technician the most urgent open order first, and the next when it is free again", () => {
    const w = world([contractor("ctr_a")], [order(0, "routine"), order(1, "urgent")]);
    // the urgent order at once (20 min drive), the routine one when the technician is done (80) plus its drive
    assert.deepEqual(onSite(w), [100, 20]);
  });

  it("takes the technician arriving earliest, rank breaking ties, and never one arriving after the deadline", () => {
    const near = order(0, "emergency", t0, { travelMinutes: 25 });
    const far = order(1, "emergency", t0, { travelMinutes: 40 }); // 40 > 30 minutes: nobody reaches it
    const result = runOnlineRule(world([contractor("ctr_a"), contractor("ctr_b")], [near, far]), {
      responseBound: false,
    });
    assert.equal(result.outcomes[0].job?.contractorId, "ctr_a");
    assert.equal(result.outcomes[0].job?.onSiteAt, t0 + 25 * min);
    assert.equal(result.outcomes[1].assignedAt, undefined);
  });

  it("bound by the response as well, arrives no sooner than the contractor's response for the urgency", () => {
    const w = world([contractor("ctr_a", { base_response_minutes: 300 })], [order(0, "urgent"), order(1, "routine")]);
    // urgent: 150 minutes of response against a 120-minute deadline, so never; routine: its 300 minutes
    assert.deepEqual(onSite(w, true), [null, 300]);
    assert.deepEqual(onSite(w, false), [20, 100]);
  });

  it("keeps to working hours, day seats and the NTE", () => {
    const shop = contractor("ctr_a", {
      working_hours: fullWeek(weekdayHours("08:00", "18:00")),
      capacity: { concurrent_jobs: 2, jobs_per_day: 1 },
    });
    const evening = order(0, "routine", Date.parse("2026-12-02T01:00:00Z")); // 19:00 in Chicago
    const held = order(1, "routine");
    const second = order(2, "routine", t0 + min);
    const first = order(3, "routine");
    const nte = new Map<DayOrder, number | null>([[held, 1]]);
    const result = runOnlineRule(
      world(
        [shop],
        [first, held, second, evening].sort((a, b) => a.at - b.at),
        nte,
      ),
      {
        responseBound: false,
      },
    );
    const byIndex = new Map(result.outcomes.map((o) => [o.order.index, o]));
    assert.equal(byIndex.get(3)?.job?.onSiteAt, t0 + 20 * min);
    assert.equal(byIndex.get(1)?.held, true);
    assert.equal(byIndex.get(1)?.assignedAt, undefined);
    // one job a day: the second waits for Wednesday 08:00 less its drive, still by its 24 hours
    assert.equal(byIndex.get(2)?.job?.onSiteAt, Date.parse("2026-12-02T14:00:00Z"));
    // the evening order could only arrive Wednesday morning, and Wednesday's one seat went to the earlier deadline
    assert.equal(byIndex.get(0)?.assignedAt, undefined);
    assert.equal(result.nteBreaches, 0);
  });
});
