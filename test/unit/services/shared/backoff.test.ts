import assert from "node:assert/strict";
import { exponentialBackoffMs } from "../../../../server/services/shared/backoff.js";

describe("backoff", () => {
  describe("exponentialBackoffMs()", () => {
    const cases: [string, number, number, number, number][] = [
      ["the first retry waits the base", 250, 0, 60_000, 250],
      ["each retry doubles", 250, 3, 60_000, 2_000],
      ["the cap bounds it", 10_000, 9, 3_600_000, 3_600_000],
      ["a base above the cap is the cap", 90_000, 0, 60_000, 60_000],
      ["a negative retry counts as the first", 500, -1, 5_000, 500],
      ["the exponent stops at 20, so a huge count stays finite", 1, 5_000, Number.POSITIVE_INFINITY, 2 ** 20],
    ];
    for (const [name, base, retry, cap, expected] of cases)
      it(name, () => {
        assert.equal(exponentialBackoffMs(base, retry, cap), expected);
      });
  });
});
