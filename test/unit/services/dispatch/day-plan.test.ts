// Re-planning one contractor's day, pure (server/services/dispatch/day-plan.ts): a late job is brought by its
// deadline alone when a technician is free, else by moving the jobs in its way on one technician (calmer ones still
// by their own deadlines, or ones already booked past theirs); nothing that has set off, is the customer's choice, or
// would be made late moves.
import { strict as assert } from "node:assert";
import { replanLate, wayFor, type PlannedJob } from "../../../../server/services/dispatch/day-plan.js";
import { workedWindows } from "../../../../server/services/dispatch/arrival-windows.js";
import { onSlots } from "../../../../server/services/dispatch/technician-time.js";
import { alwaysWorking } from "../../../../server/services/dispatch/working-hours.js";

const minute = 60_000;
const at = (hhmm: string, day = "01") => Date.parse(`2026-12-${day}T${hhmm}:00Z`);
const now = at("10:00");
const windows = workedWindows({ time_zone: "UTC", working_hours: alwaysWorking }, "UTC", now);
const time = { travelMs: 30 * minute, workMs: 90 * minute, earliest: now + 30 * minute };

/** A job arriving at `arrival` on technician `seat`, due by `deadline`. */
function job(orderId: string, seat: number, arrival: number, deadline: number, extra: Partial<PlannedJob> = {}) {
  return {
    orderId,
    seat,
    busy: onSlots(arrival - time.travelMs, arrival + time.workMs),
    day: "2026-12-01",
    daySeat: Number(orderId.slice(1)),
    arrival,
    deadline,
    movable: true,
    time,
    windows,
    ...extra,
  } satisfies PlannedJob;
}

describe("re-planning one contractor's day", () => {
  const urgent = job("u1", 0, at("14:00"), at("12:00"));

  it("moves a late job alone to a free technician's earliest arrival by its deadline", () => {
    const plan = replanLate({ concurrent: 2, perDay: 8, jobs: [urgent] }, "u1", now);
    assert.equal(plan?.late.placement.arrival, at("10:30"));
    assert.deepEqual(plan?.yielded, []);
  });

  it("makes way by moving a calmer job later, still by its own deadline", () => {
    const routine = job("r2", 0, at("10:30"), at("10:00", "02"));
    const plan = replanLate({ concurrent: 1, perDay: 8, jobs: [urgent, routine] }, "u1", now);
    assert.equal(plan?.late.placement.arrival, at("10:30"));
    assert.deepEqual(
      plan?.yielded.map((move) => move.orderId),
      ["r2"],
    );
    assert.ok(plan.yielded[0].placement.arrival <= at("10:00", "02"));
    const [a, b] = [plan.late.placement.busy, plan.yielded[0].placement.busy];
    assert.ok(a.until <= b.from || b.until <= a.from, "the two never overlap on the one technician");
  });

  it("moves every calmer job in its way on one technician, each by its own deadline", () => {
    const long = job("u1", 0, at("16:00"), at("12:00"), { time: { ...time, workMs: 180 * minute } });
    const first = job("r2", 0, at("10:30"), at("10:00", "02"));
    const second = job("r3", 0, at("12:30"), at("10:00", "02"));
    const plan = replanLate({ concurrent: 1, perDay: 8, jobs: [long, first, second] }, "u1", now);
    assert.equal(plan?.late.placement.arrival, at("10:30"));
    assert.deepEqual(plan.yielded.map((move) => move.orderId).sort(), ["r2", "r3"]);
    const busy = [plan.late, ...plan.yielded].map((move) => move.placement.busy).sort((a, b) => a.from - b.from);
    for (const [i, b] of busy.slice(1).entries())
      assert.ok(busy[i].until <= b.from, "one technician, one job at a time");
  });

  it("names the calmer jobs to move for a job not yet booked, and none when it fits already", () => {
    const routine = job("r2", 0, at("10:30"), at("10:00", "02"));
    const unbooked = { time, windows, deadline: at("12:00") };
    assert.deepEqual(
      wayFor({ concurrent: 1, perDay: 8, jobs: [routine] }, unbooked, now).map((move) => move.orderId),
      ["r2"],
    );
    assert.deepEqual(wayFor({ concurrent: 2, perDay: 8, jobs: [routine] }, unbooked, now), []);
  });

  it("moves nothing that would then be late, has set off, or is the customer's choice", () => {
    const tight = job("r2", 0, at("10:30"), at("12:15"));
    assert.equal(replanLate({ concurrent: 1, perDay: 8, jobs: [urgent, tight] }, "u1", now), null);
    const fixed = job("r2", 0, at("10:30"), at("10:00", "02"), { movable: false });
    assert.equal(replanLate({ concurrent: 1, perDay: 8, jobs: [urgent, fixed] }, "u1", now), null);
    const urgentToo = job("r2", 0, at("10:30"), at("11:00"));
    assert.equal(replanLate({ concurrent: 1, perDay: 8, jobs: [urgent, urgentToo] }, "u1", now), null);
  });

  it("leaves a job on time, past its deadline, or not movable as it is", () => {
    const onTime = job("u1", 0, at("11:00"), at("12:00"));
    assert.equal(replanLate({ concurrent: 2, perDay: 8, jobs: [onTime] }, "u1", now), null);
    const past = job("u1", 0, at("14:00"), now);
    assert.equal(replanLate({ concurrent: 2, perDay: 8, jobs: [past] }, "u1", now), null);
    const setOff = job("u1", 0, at("14:00"), at("12:00"), { movable: false });
    assert.equal(replanLate({ concurrent: 2, perDay: 8, jobs: [setOff] }, "u1", now), null);
  });

  it("moves a job booked past its own deadline out of the way of one that can still be kept, to its earliest after", () => {
    const broken = job("p2", 0, at("10:30"), now); // due by 10:00, booked for 10:30: a promise already broken
    const plan = replanLate({ concurrent: 1, perDay: 8, jobs: [urgent, broken] }, "u1", now);
    assert.equal(plan?.late.placement.arrival, at("10:30"));
    assert.deepEqual(
      plan.yielded.map((move) => move.orderId),
      ["p2"],
    );
    assert.equal(plan.yielded[0].placement.arrival, at("12:30"), "straight after the urgent job's work and its drive");
    const unbooked = { time, windows, deadline: at("12:00") };
    assert.deepEqual(
      wayFor({ concurrent: 1, perDay: 8, jobs: [broken] }, unbooked, now).map((move) => move.orderId),
      ["p2"],
    );
  });

  it("places the jobs still bound by their deadlines before one past its own", () => {
    const tight = job("r2", 0, at("11:00"), at("13:00")); // in the way, and must stay by 13:00
    const broken = job("p3", 0, at("10:30"), now);
    const plan = replanLate({ concurrent: 1, perDay: 8, jobs: [urgent, tight, broken] }, "u1", now);
    assert.equal(plan?.late.placement.arrival, at("10:30"));
    const arrivals = new Map(plan.yielded.map((move) => [move.orderId, move.placement.arrival]));
    assert.equal(arrivals.get("r2"), at("12:30"));
    assert.equal(arrivals.get("p3"), at("14:30"));
  });

  it("of the jobs already late, moves the one it delays least", () => {
    const first = job("p1", 0, at("10:30"), now); // both booked past their deadlines, one after the other
    const second = job("p2", 0, at("12:30"), now);
    const unbooked = { time, windows, deadline: at("14:00") };
    const moves = wayFor({ concurrent: 1, perDay: 8, jobs: [first, second] }, unbooked, now);
    // arriving at 10:30 would send p1 to 14:30 (four hours later); at 12:30 it sends p2 there, two hours later
    assert.deepEqual(
      moves.map((move) => [move.orderId, move.placement.arrival]),
      [["p2", at("14:30")]],
    );
  });

  it("keeps within the day seats: a full day moves nobody onto it", () => {
    const tomorrow = job("u1", 0, at("09:00", "02"), at("12:00"), { day: "2026-12-02" });
    const full = [0, 1].map((n) =>
      job(`x${n + 2}`, 1, at(`${12 + 2 * n}:00`), at("10:00", "04"), { movable: false, daySeat: n }),
    );
    assert.equal(replanLate({ concurrent: 2, perDay: 2, jobs: [tomorrow, ...full] }, "u1", now), null);
    assert.equal(
      replanLate({ concurrent: 2, perDay: 3, jobs: [tomorrow, ...full] }, "u1", now)?.late.placement.arrival,
      at("10:30"),
    );
  });

  it("needs a technician free from the drive to the end of the work", () => {
    const blocking = job("b2", 0, at("11:30"), at("10:00", "02"), { movable: false });
    const plan = replanLate({ concurrent: 1, perDay: 8, jobs: [urgent, blocking] }, "u1", now);
    assert.equal(plan, null);
  });
});
