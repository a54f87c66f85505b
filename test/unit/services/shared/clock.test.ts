// The services' clock: the wall clock (shifted by DISPATCH_TEST_NOW) by default, another source while one is
// installed, the previous one back, and a scoped source (withClock) for the work run inside it only.
import assert from "node:assert/strict";
import { installClock, now, nowDate, pinnedOffset, withClock } from "../../../../server/services/shared/clock.js";

/** The wall clock as this run's clock reads it (DISPATCH_TEST_NOW's shift, 0 when unset). */
const wall = () => Date.now() + pinnedOffset();

describe("shared clock", () => {
  it("reads the wall clock by default, shifted as DISPATCH_TEST_NOW says", () => {
    const before = wall();
    const read = now();
    assert.ok(read >= before && read <= wall());
    assert.ok(Math.abs(nowDate().getTime() - wall()) < 1000);
  });

  describe("pinnedOffset()", () => {
    const at = "2026-11-28T18:07:00-06:00";
    it("is 0 without DISPATCH_TEST_NOW", () => {
      assert.equal(pinnedOffset({}, 1_000), 0);
    });

    it("puts the instant at the first reader's real time and hands that time on to the processes it starts", () => {
      const env: NodeJS.ProcessEnv = { DISPATCH_TEST_NOW: at };
      const first = pinnedOffset(env, 5_000);
      assert.equal(first, Date.parse(at) - 5_000);
      assert.equal(env.DISPATCH_TEST_NOW_SINCE, "5000");
      assert.equal(pinnedOffset({ ...env }, 65_000), first, "a process started a minute later reads the same time");
    });

    it("refuses what is not an RFC 3339 instant with an offset, naming the variable", () => {
      for (const value of ["2026-11-28", "2026-11-28T18:07:00", "saturday", "2026-13-40T00:00:00Z"])
        assert.throws(() => pinnedOffset({ DISPATCH_TEST_NOW: value }), /DISPATCH_TEST_NOW/, value);
    });
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
    assert.ok(Math.abs(now() - wall()) < 1000);
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
