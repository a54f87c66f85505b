// The demo contractor pool: every trade in several large states, and deliberately nobody in AK.
import assert from "node:assert/strict";
import { demoContractors } from "../../../../server/services/sandbox/demo-contractors.js";
import { tradeCodes } from "../../../../server/services/dispatch/trades.js";

describe("demo contractor pool", () => {
  const pool = demoContractors();
  const states = new Set(pool.flatMap((c) => c.service_areas.map((a) => a.state)));

  it("covers every trade in every seeded state, with an emergency-capable contractor", () => {
    assert.ok(states.size >= 5, `only ${states.size} states`);
    for (const state of states) {
      for (const trade of tradeCodes) {
        const serving = pool.filter((c) => c.trades.includes(trade) && c.service_areas.some((a) => a.state === state));
        assert.ok(serving.length >= 1, `${trade} in ${state}`);
        assert.ok(
          serving.some((c) => c.emergency_capable),
          `emergency ${trade} in ${state}`,
        );
      }
    }
  });

  it("has no contractor in AK", () => {
    assert.equal(states.has("AK"), false);
  });
});
