// The services' clock: the wall clock by default, another source while one is installed, the previous one back,
// and a scoped source (withClock) for the work run inside it only, across its awaits, concurrent work unaffected.
import assert from "node:assert/strict";
import { installClock, now, nowDate, withClock } from "../../../../server/services/shared/clock.js";

describe("shared clock", () => {
  it("reads the wall clock by default", () => {
    const before = Date.now();
    const read = now();
    assert.ok(read >= before && read <= Date.now());
    assert.ok(Math.abs(nowDate().getTime() - Date.now()) < 1000);
  });

  it("reads an installed source until it is removed, nested installs restoring in turn", () => {
    const simulated = Date.parse("2026-12-01T15:00:00Z");
    const removeOuter = installClock({ now: () => simulated });
    assert.equal(now(), simulated);
    assert.equal(nowDate().toISOString(), "2026-12-01T15:00:00.000Z");
    const removeInner = installClock({ now: () => simulated + 60_000 });
    assert.equal(now(), simulated + 60_000);
    removeInner();
    assert.equal(now(), simulated);
    removeOuter();
    assert.ok(Math.abs(now() - Date.now()) < 1000);
  });

  it("reads a scoped source inside withClock only, across awaits, beside concurrent work on the process's source", async () => {
    const frozen = Date.parse("2026-11-27T05:00:00Z");
    const simulated = Date.parse("2026-12-01T15:00:00Z");
    const remove = installClock({ now: () => simulated });
    try {
      const inside = withClock({ now: () => frozen }, async () => {
        const first = now();
        await new Promise((resolve) => setTimeout(resolve, 5));
        return [first, nowDate().getTime()];
      });
      const outside = now(); // runs while the scoped work awaits
      assert.deepEqual(await inside, [frozen, frozen]);
      assert.equal(outside, simulated);
      assert.equal(now(), simulated);
    } finally {
      remove();
    }
  });
});
