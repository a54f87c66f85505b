import { strict as assert } from "node:assert";
import { tradeWages } from "../../../../server/data/oews-wages.js";
import {
  billedHourly,
  estimate,
  jobCents,
  modelAssumptions,
  pricingModel,
  tradeIndex,
  usd,
} from "../../../../server/services/dispatch/pricing.js";
import { tradeCodes, urgencies, type Urgency } from "../../../../server/services/dispatch/trades.js";

describe("pricing", () => {
  describe("billedHourly()", () => {
    // Expected values worked by hand: wage x 1.35 burden x 2.4 overhead/margin x urgency, rounded to cents.
    const cases: [number, Urgency, number][] = [
      [20, "routine", 64.8],
      [20, "emergency", 129.6],
      [20, "urgent", 97.2],
      [20, "scheduled", 61.56],
      [33.33, "routine", 107.99],
      [0, "emergency", 0],
    ];
    for (const [wage, urgency, expected] of cases) {
      it(`bills a $${wage} wage at ${urgency} as $${expected}/h`, () => {
        assert.equal(billedHourly(wage, urgency), expected);
      });
    }

    it("orders urgencies emergency > urgent > routine > scheduled for every trade", () => {
      for (const code of tradeCodes) {
        const [emergency, urgent, routine, scheduled] = urgencies.map((u) => billedHourly(tradeWages[code].median, u));
        assert.ok(emergency > urgent && urgent > routine && routine > scheduled, code);
      }
    });
  });

  describe("jobCents()", () => {
    const cases: [number, number, number][] = [
      [64.8, 2, 17_460],
      [100, 1.5, 19_500],
      [0, 0, 4_500],
      [0.01, 1, 4_501],
    ];
    for (const [hourly, hours, expected] of cases) {
      it(`prices ${hours}h at $${hourly}/h plus the trip charge as ${expected} cents`, () => {
        assert.equal(jobCents(hourly, hours), expected);
      });
    }
  });

  describe("usd()", () => {
    const cases: [number, string][] = [
      [0, "0.00"],
      [5, "0.05"],
      [12_345, "123.45"],
      [4_500, "45.00"],
    ];
    for (const [cents, expected] of cases) {
      it(`formats ${cents} cents as ${expected}`, () => {
        assert.equal(usd(cents), expected);
      });
    }
  });

  describe("modelAssumptions()", () => {
    it("uses 2 typical hours without a trade and the trade's hours with one", () => {
      assert.equal(modelAssumptions().typical_hours, 2);
      for (const code of tradeCodes) assert.equal(modelAssumptions(code).typical_hours, tradeWages[code].typicalHours);
    });

    it("returns a copy: changing it leaves the shared model untouched", () => {
      const copy = modelAssumptions();
      (copy.urgency_multipliers as Record<Urgency, number>).emergency = 99;
      assert.equal(pricingModel.urgency_multipliers.emergency, 2);
    });
  });

  describe("estimate()", () => {
    for (const trade of tradeCodes) {
      for (const urgency of urgencies) {
        it(`brackets ${trade}/${urgency}: low <= point <= high, point = hourly x typical hours + trip`, () => {
          const { billed_estimate: billed, wage_basis: basis } = estimate({
            trade,
            location: { state: "TX" },
            urgency,
          });
          assert.ok(billed.low_cents <= billed.point_cents && billed.point_cents <= billed.high_cents);
          assert.equal(billed.point_cents, jobCents(billed.hourly_rate_dollars, tradeWages[trade].typicalHours));
          assert.equal(billed.hourly_rate_dollars, billedHourly(basis.median_hourly_dollars, urgency));
          assert.match(basis.source.url, /^https:\/\/www\.bls\.gov\/oes\/current\/oes\d{6}\.htm$/);
        });
      }
    }
  });

  describe("tradeIndex()", () => {
    it("lists every trade once with its routine billed rate", () => {
      const index = tradeIndex();
      assert.deepEqual(
        index.trades.map((t) => t.code),
        [...tradeCodes],
      );
      for (const t of index.trades)
        assert.equal(t.billed_hourly_rate_routine_dollars, billedHourly(t.median_rate_dollars, "routine"));
    });
  });
});
