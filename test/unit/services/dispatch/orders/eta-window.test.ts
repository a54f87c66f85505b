// The one rule of `eta_outside_window` (orders/eta.ts): an estimate is outside the booked window before its start or
// at or after its end ([start, end), as window adherence counts), and never outside when the order has no window.
import assert from "node:assert/strict";
import { etaView, isOutsideWindow } from "../../../../../server/services/dispatch/orders/eta.js";

const start = "2026-12-05T20:00:00-06:00";
const end = "2026-12-05T22:00:00-06:00";
const minute = 60_000;
const at = (base: string, minutes: number) => new Date(Date.parse(base) + minutes * minute);
const estimate = (eta: Date, window: { start: string; end: string } | null) => ({
  eta_at: eta,
  eta_updated_at: new Date("2026-12-05T17:31:00-06:00"),
  eta_source: "contractor",
  arrival_window_start: window ? new Date(window.start) : null,
  arrival_window_end: window ? new Date(window.end) : null,
});

describe("eta_outside_window", () => {
  const cases: [string, Date, boolean][] = [
    ["42 hours before the window", at(start, -42 * 60), true],
    ["a minute before its start", at(start, -1), true],
    ["at its start", at(start, 0), false],
    ["inside it", at(start, 75), false],
    ["a millisecond before its end", new Date(Date.parse(end) - 1), false],
    ["at its end", at(end, 0), true],
    ["an hour after it", at(end, 60), true],
  ];
  for (const [what, eta, outside] of cases)
    it(`is ${outside} for an estimate ${what}`, () => {
      const row = estimate(eta, { start, end });
      assert.equal(isOutsideWindow(row), outside);
      assert.equal(etaView(row)?.eta_outside_window, outside);
    });

  it("is false without a booked window, and reads dates kept as text alike", () => {
    assert.equal(etaView(estimate(at(end, 600), null))?.eta_outside_window, false);
    const text = { ...estimate(at(end, 5), null), arrival_window_start: start, arrival_window_end: end };
    assert.equal(isOutsideWindow(text), true);
  });

  it("shows the flag after the estimate's own fields", () => {
    assert.deepEqual(Object.keys(etaView(estimate(at(start, 10), { start, end }))!), [
      "estimated_arrival_at",
      "updated_at",
      "source",
      "eta_outside_window",
    ]);
  });
});
