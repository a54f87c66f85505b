import { strict as assert } from "node:assert";
import type { Contractor } from "../../../../server/services/dispatch/contractors.js";
import { etaTier, type Match } from "../../../../server/services/dispatch/matching.js";
import type { Urgency } from "../../../../server/services/dispatch/trades.js";

const matchAnswering = (responseMinutes: number): Match => ({
  contractor: {} as Contractor,
  coverage: "state",
  responseMinutes,
  costCents: 10_000,
});

describe("matching", () => {
  describe("etaTier()", () => {
    const cases: [number | null, Urgency, string][] = [
      [null, "emergency", "unavailable"],
      [null, "scheduled", "unavailable"],
      [30, "scheduled", "scheduled"],
      [1_000, "scheduled", "scheduled"],
      [60, "emergency", "within_1h"],
      [61, "urgent", "within_4h"],
      [240, "routine", "within_4h"],
      [241, "routine", "same_day"],
      [720, "routine", "same_day"],
      [721, "routine", "next_business_day"],
    ];
    for (const [minutes, urgency, tier] of cases)
      it(`returns ${tier} for ${minutes === null ? "no match" : `${minutes} min`} at ${urgency} urgency`, () => {
        assert.equal(etaTier(minutes === null ? undefined : matchAnswering(minutes), urgency), tier);
      });
  });
});
