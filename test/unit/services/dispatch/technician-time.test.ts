// Technicians' time, pure (server/services/dispatch/technician-time.ts, window-confidence.ts): the earliest arrival
// inside a window after the technician's other jobs and the drive, within the margin; busy intervals on quarter
// hours; the grades of a quoted window.
import { strict as assert } from "node:assert";
import {
  arrivalMarginMs,
  busyOf,
  earliestArrival,
  expectedWorkMinutes,
  onSlots,
} from "../../../../server/services/dispatch/technician-time.js";
import { confidenceOf } from "../../../../server/services/dispatch/window-confidence.js";

const minute = 60_000;
const hour = 60 * minute;
const at = (hhmm: string) => Date.parse(`2026-12-01T${hhmm}:00Z`);
const window = { start: at("14:00"), end: at("16:00") };
const job = (earliest: number, workMinutes = 60) => ({ travelMs: 30 * minute, workMs: workMinutes * minute, earliest });

describe("technicians' time", () => {
  it("arrives at the window's start when the technician is free and the response allows", () => {
    const placed = earliestArrival([], window, job(at("12:00")));
    assert.deepEqual(placed, {
      arrival: at("14:00"),
      busy: { from: at("13:30"), until: at("15:00") },
      driveMs: 30 * minute,
    });
  });

  it("keeps the drive planned, which the busy interval's slot bound does not show", () => {
    const placed = earliestArrival([], window, { ...job(at("12:00")), travelMs: 17 * minute });
    assert.deepEqual([placed?.busy.from, placed?.driveMs], [at("13:30"), 17 * minute]);
  });

  it("arrives no earlier than the response and no later than the margin before the end", () => {
    assert.equal(earliestArrival([], window, job(at("14:31") + 7_000))?.arrival, at("14:31") + 7_000);
    assert.equal(earliestArrival([], window, job(window.end - arrivalMarginMs))?.arrival, at("15:45"));
    assert.equal(earliestArrival([], window, job(window.end - arrivalMarginMs + minute)), null);
  });

  it("waits for the technician's job before, then the drive; refuses a window its 4-hour job covers", () => {
    const before = busyOf(at("12:00"), job(0, 240)); // 11:30 to 16:00
    assert.deepEqual(before, { from: at("11:30"), until: at("16:00") });
    assert.equal(earliestArrival([before], window, job(0)), null);
    const shorter = busyOf(at("12:00"), job(0, 150)); // until 14:30: arrive 15:00
    assert.equal(earliestArrival([shorter], window, job(0))?.arrival, at("15:00"));
  });

  it("leaves room before the technician's next job, or none", () => {
    const next = onSlots(at("15:30"), at("18:00"));
    assert.equal(earliestArrival([next], window, job(0))?.arrival, at("14:00")); // busy 13:30 to 15:00
    assert.equal(earliestArrival([next], window, job(0, 120)), null); // would run to 16:00
  });

  it("departs after the quarter hour another job holds", () => {
    const placed = earliestArrival([onSlots(at("14:30"), at("14:45"))], window, job(0));
    assert.equal(placed?.arrival, at("15:15")); // departs 14:45, after the quarter held
  });

  it("keeps busy intervals on quarter hours, as technician_slots does", () => {
    assert.deepEqual(onSlots(at("13:37"), at("15:01")), { from: at("13:30"), until: at("15:15") });
  });

  it("expects a trade's typical billed hours on site", () => {
    assert.equal(expectedWorkMinutes("roofing"), 240);
    assert.equal(expectedWorkMinutes("locksmith"), 60);
  });

  it("grades a window by its slack and the technicians that could take it", () => {
    const end = window.end;
    assert.equal(confidenceOf(end, end - 2 * hour, 2), "high");
    assert.equal(confidenceOf(end, end - 2 * hour, 1), "medium");
    assert.equal(confidenceOf(end, end - 45 * minute, 3), "medium");
    assert.equal(confidenceOf(end, end - 20 * minute, 3), "low");
  });
});
