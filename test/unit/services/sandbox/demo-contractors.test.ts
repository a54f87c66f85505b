// The demo contractor pool: every trade in several large states, and deliberately nobody in AK; realistic
// availability (the state's zone, valid hours, 24/7 emergency outfits, weekday crews, bounded capacities).
import assert from "node:assert/strict";
import { isWorkingAt, localToInstant } from "../../../../server/services/dispatch/calendar.js";
import { stateTimeZone } from "../../../../server/services/dispatch/state-zones.js";
import { demoContractors } from "../../../../server/services/sandbox/demo-contractors.js";
import { tradeCodes } from "../../../../server/services/dispatch/trades.js";
import { availabilityProblems, fullWeek } from "../../../../server/services/dispatch/working-hours.js";
import { baseZipProblem } from "../../../../server/services/dispatch/geo/base-zip.js";
import { zipPoint } from "../../../../server/services/dispatch/geo/zip-points.js";

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

  it("bases every contractor at a real ZIP inside its area: a metro shop in its first prefix, a statewide crew in its state", () => {
    for (const c of pool) {
      assert.ok(c.base_zip, c.name);
      assert.equal(baseZipProblem(c.base_zip, c.service_areas), null, c.name);
      const [area] = c.service_areas;
      assert.equal(zipPoint(c.base_zip)?.state, area.state, c.name);
      if (area.zip_prefixes) assert.ok(c.base_zip.startsWith(area.zip_prefixes[0]), `${c.name}: ${c.base_zip}`);
      if (area.cities) assert.equal(zipPoint(c.base_zip)?.city, area.cities[0], c.name);
    }
    assert.equal(new Set(pool.map((c) => c.base_zip)).size, 2 * states.size, "two bases a state");
  });

  it("has no contractor in AK", () => {
    assert.equal(states.has("AK"), false);
  });

  describe("availability", () => {
    const calendarOf = (c: (typeof pool)[number]) => ({
      time_zone: c.time_zone!,
      working_hours: fullWeek(c.working_hours!),
    });
    const hoursOf = (c: (typeof pool)[number]) => JSON.stringify(c.working_hours);
    const allDay = (c: (typeof pool)[number]) =>
      Object.values(fullWeek(c.working_hours!)).every(
        (d) => d.length === 1 && d[0].start === "00:00" && d[0].end === "24:00",
      );

    it("gives every contractor its state's zone, valid hours and capacities of 1–6 at once and 4–48 a day", () => {
      for (const c of pool) {
        assert.equal(c.time_zone, stateTimeZone(c.service_areas[0].state), c.name);
        assert.deepEqual(availabilityProblems(c), [], c.name);
        const { concurrent_jobs, jobs_per_day } = c.capacity!;
        assert.ok(concurrent_jobs >= 1 && concurrent_jobs <= 6, `${c.name}: ${concurrent_jobs} at once`);
        assert.ok(jobs_per_day >= 4 && jobs_per_day <= 48, `${c.name}: ${jobs_per_day} a day`);
        assert.ok(jobs_per_day >= concurrent_jobs, c.name);
      }
    });

    it("has two round-the-clock contractors per emergency trade and state, weekday crews otherwise, some Saturday hours", () => {
      const roundTheClock = pool.filter(allDay);
      for (const state of states)
        for (const trade of tradeCodes) {
          const serving = roundTheClock.filter((c) => c.trades.includes(trade) && c.service_areas[0].state === state);
          const emergency = ["plumbing", "electrical", "hvac", "locksmith"].includes(trade);
          assert.equal(serving.length, emergency ? 2 : 0, `${trade} ${state}`);
        }
      assert.ok(pool.length - roundTheClock.length >= pool.length / 2, "the other half keeps weekday hours");
      const saturday = pool.filter((c) => !allDay(c) && (c.working_hours!.saturday ?? []).length > 0);
      assert.ok(saturday.length > 0 && saturday.length < pool.length - roundTheClock.length);
      assert.ok(new Set(pool.map(hoursOf)).size >= 4, "several kinds of hours");
    });

    it("has every trade working in every state on a Tuesday noon, and only the 24/7 outfits at 3 a.m. Sunday", () => {
      for (const state of states)
        for (const trade of tradeCodes) {
          const serving = pool.filter((c) => c.trades.includes(trade) && c.service_areas[0].state === state);
          // Tuesday 24 November 2026, 12:00 and Sunday 22 November 03:00, local time in the state's zone.
          const at = (local: string) => new Date(localToInstant(stateTimeZone(state), Date.parse(local)));
          assert.ok(
            serving.some((c) => isWorkingAt(calendarOf(c), at("2026-11-24T12:00:00Z"))),
            `${trade} ${state}`,
          );
          for (const c of serving)
            assert.equal(isWorkingAt(calendarOf(c), at("2026-11-22T03:00:00Z")), allDay(c), c.name);
        }
    });
  });
});
