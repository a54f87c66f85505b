// The dispatch-day simulation (bench/dispatch-day.ts) in small: 40 orders and 20 contractors of a seeded day, replayed
// through the real services under the simulated clock. Whatever the figures, the new matcher's run never books a
// contractor over its concurrent_jobs or jobs_per_day (counted from the timeline, not the ledger), never steps
// above an NTE without an override, and accounts for every order: assigned and worked to completion, or waiting
// (escalated past its deadline or held over its NTE).
import assert from "node:assert/strict";
import { scaleOf, simulateDay, type DayResult, type DaySizes } from "../../bench/dispatch-day.js";
import { dayLines } from "../../bench/dispatch-day/report.js";
import { deadlineOf } from "../../bench/dispatch-day/simulate.js";
import { now, pinnedOffset } from "../../server/services/shared/clock.js";
import { databases } from "../helpers/server.js";

/** One state and two trades: 40 orders are then enough to fill the 20 contractors' windows and days. */
const scope = { states: ["TX"], trades: ["plumbing", "hvac"] } satisfies DaySizes["scope"];
const sizes = { seed: 4242, orders: 40, contractors: 20, day: "2026-12-01", scope } satisfies DaySizes;

for (const db of databases()) {
  describe(`dispatch day (${db.name})`, function () {
    this.timeout(180_000);
    let result: DayResult;
    before(async () => {
      result = await simulateDay(db, sizes);
    });

    it("books no contractor over its concurrent_jobs or jobs_per_day, and breaches no NTE", () => {
      assert.deepEqual(result.figures.fresh.doubleBookings, { concurrent: 0, daily: 0 });
      assert.equal(result.figures.fresh.nteBreaches, 0);
      assert.ok(
        result.fresh.outcomes.some((o) => o.job?.completedAt !== undefined),
        "some jobs were worked to completion",
      );
    });

    it("accounts for every order: completed when assigned, else waiting (escalated, held or within its deadline)", () => {
      const { outcomes } = result.fresh;
      assert.equal(outcomes.length, sizes.orders);
      assert.equal(new Set(outcomes.map((o) => o.order.index)).size, sizes.orders);
      for (const outcome of outcomes) {
        if (outcome.assignedAt !== undefined) assert.equal(outcome.status, "completed");
        else assert.equal(outcome.status, "accepted_pending_fulfilment");
        if (outcome.held) assert.equal(outcome.assignedAt, undefined);
      }
      const waiting = outcomes.filter((o) => o.assignedAt === undefined);
      // the day ran past every deadline: whatever still waits was escalated (held orders included)
      for (const outcome of waiting) assert.ok(outcome.escalated, `order ${outcome.order.index} waits unescalated`);
    });

    it("catches the baseline's over-booking with the same count: it books without capacity", () => {
      const { concurrent, daily } = result.figures.baseline.doubleBookings;
      assert.ok(concurrent + daily > 0, "the baseline gives one contractor more than it can take");
    });

    it("quotes each order first and measures the promises from the database: ETA at booking, windows, drive", () => {
      const { quotes } = result.figures.fresh;
      assert.equal(quotes?.quotes, sizes.orders);
      assert.ok(quotes.windows > 0, "the quotes offered windows");
      const all = result.figures.fresh.rows.at(-1)!;
      const booked = result.fresh.outcomes.filter((o) => o.job?.window && o.bookedEta !== undefined);
      assert.equal(all.etaBooked, booked.length);
      assert.ok(booked.length > 0, "orders were booked with an ETA");
      const inside = booked.filter((o) => o.bookedEta! >= o.job!.window!.start && o.bookedEta! <= o.job!.window!.end);
      assert.equal(all.etaInWindow, inside.length / booked.length);
      assert.equal(
        all.driveMinutes,
        result.fresh.outcomes
          .filter((o) => o.job?.onSiteAt !== undefined)
          .reduce((s, o) => s + o.order.travelMinutes, 0),
      );
      const kpi = dayLines(result).find((line) => line.startsWith("- new, promises:"));
      assert.match(kpi ?? "", /ETA inside the booked window at booking \d+\.\d % \(n = \d+\)/);
      assert.match(kpi ?? "", /matcher time \d+\.\d ms per order/);
    });

    it("runs issue 42's online rule on the same day, both readings, within capacity and NTE, and reports it", () => {
      for (const reading of ["drive", "response"] as const) {
        const { outcomes } = result.online[reading];
        assert.equal(outcomes.length, sizes.orders);
        assert.deepEqual(result.figures.online[reading].doubleBookings, { concurrent: 0, daily: 0 });
        assert.equal(result.figures.online[reading].nteBreaches, 0);
        for (const o of outcomes.filter((o) => o.job)) {
          assert.ok(
            o.job!.onSiteAt! <= deadlineOf(o.order),
            `order ${o.order.index} taken only to arrive by its deadline`,
          );
        }
      }
      const line = dayLines(result).find((l) => l.includes("beside issue 42's online rule"));
      assert.match(
        line ?? "",
        /new (\d+\.\d % \/ ){4}\d+\.\d %; the online rule, an arrival bounded by the drive alone/,
      );
    });

    it("gives the baseline the same day and puts the wall clock back", () => {
      assert.equal(result.baseline.outcomes.length, sizes.orders);
      assert.ok(Math.abs(now() - (Date.now() + pinnedOffset())) < 1000);
    });
  });
}

describe("dispatch day --scale", () => {
  it("reads a whole number from 1 to 100, 1 when absent, and refuses anything else", () => {
    assert.equal(scaleOf(["--only", "dispatch-day"]), 1);
    assert.equal(scaleOf(["--scale", "10"]), 10);
    for (const bad of ["0", "101", "2.5", "ten", undefined])
      assert.throws(() => scaleOf(bad === undefined ? ["--scale"] : ["--scale", bad]), /whole number from 1 to 100/);
  });
});
