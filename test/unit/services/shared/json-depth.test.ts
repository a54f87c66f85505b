// nestsDeeperThan(): depth of objects and arrays, measured without recursion.
import assert from "node:assert/strict";
import { nestsDeeperThan } from "../../../../server/services/shared/json-depth.js";

const arrays = (levels: number): unknown => JSON.parse(`${"[".repeat(levels)}${"]".repeat(levels)}`);

describe("json-depth", () => {
  describe("nestsDeeperThan()", () => {
    const cases: [string, unknown, number, boolean][] = [
      ["a scalar", 1, 0, false],
      ["null", null, 0, false],
      ["{} at a bound of 1", {}, 1, false],
      ["{} at a bound of 0", {}, 0, true],
      ["{a:{b:[1]}} at 3", { a: { b: [1] } }, 3, false],
      ["{a:{b:[1]}} at 2", { a: { b: [1] } }, 2, true],
      ["a deep branch beside shallow ones", { a: 1, b: [2], c: { d: { e: {} } } }, 3, true],
      ["64 arrays at 64", arrays(64), 64, false],
      ["65 arrays at 64", arrays(65), 64, true],
    ];
    for (const [name, value, limit, expected] of cases)
      it(`answers ${String(expected)} for ${name}`, () => {
        assert.equal(nestsDeeperThan(value, limit), expected);
      });

    it("measures 100,000 levels without overflowing the stack", () => {
      assert.equal(nestsDeeperThan(arrays(100_000), 64), true);
    });
  });
});
