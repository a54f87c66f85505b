// The log throttle: one line per cause per window, the next line carrying how many were suppressed.
import assert from "node:assert/strict";
import { createLogThrottle } from "../../../server/plugins/log-throttle.js";

describe("log throttle", () => {
  describe("take()", () => {
    it("logs the first of a burst, counts the rest, and reports the count after the window", () => {
      const throttle = createLogThrottle(10_000);
      const logged = Array.from({ length: 200 }, (_, i) => throttle.take("db", 1_000 + i)).filter(Boolean);
      assert.deepEqual(logged, [{ suppressed: 0 }]);
      assert.deepEqual(throttle.take("other", 1_500), { suppressed: 0 }, "causes are counted apart");
      assert.deepEqual(throttle.take("db", 11_000), { suppressed: 199 });
      assert.equal(throttle.take("db", 11_001), null);
    });
  });
});
