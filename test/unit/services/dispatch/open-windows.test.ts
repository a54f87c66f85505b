// The quote's windows over a pool (bookings.ts openWindows): the same windows, earliest arrivals and grades as each
// candidate's windows taken alone and merged, although a window already settled (enough technicians for its grade,
// and nobody left who could arrive earlier) skips the candidates after it.
import { strict as assert } from "node:assert";
import type { Db } from "../../../../server/db/knex.js";
import {
  createSeatLedger,
  dayKey,
  technicianKey,
  type Occupancy,
} from "../../../../server/services/dispatch/bookings.js";
import type { Contractor } from "../../../../server/services/dispatch/contractors.js";
import { slotMs, type Busy } from "../../../../server/services/dispatch/technician-time.js";
import { confidenceOf } from "../../../../server/services/dispatch/window-confidence.js";
import { alwaysWorking } from "../../../../server/services/dispatch/working-hours.js";
import { bookableWindows } from "../../../../server/services/dispatch/arrival-windows.js";
import type { Urgency } from "../../../../server/services/dispatch/trades.js";

const hour = 3_600_000;
/** A database nobody reads: the test hands the ledger its occupancy. */
const unread = {} as unknown as Db;
const now = Date.parse("2026-12-01T15:07:00Z");

/** A small seeded generator (the test is one fixed pool per seed). */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** A pool of contractors working all week in Chicago's zone, each technician busy at random over the next days. */
function pool(seed: number, size: number, urgency: Urgency) {
  const rand = seeded(seed);
  const timelines = new Map<string, Busy[]>();
  const daySeats = new Map<string, Set<number>>();
  const matches = Array.from({ length: size }, (_, i) => {
    const id = `ctr_${seed}_${i}`;
    const concurrent = 1 + Math.floor(rand() * 3);
    for (let technician = 0; technician < concurrent; technician++) {
      const busy: Busy[] = [];
      for (let job = 0; job < 40; job++) {
        const from = Math.floor((now + rand() * 96 * hour) / slotMs) * slotMs;
        busy.push({ from, until: from + (2 + Math.floor(rand() * 16)) * slotMs });
      }
      timelines.set(technicianKey(id, technician), busy);
    }
    if (rand() < 0.3) daySeats.set(dayKey(id, "2026-12-02"), new Set([0, 1, 2, 3]));
    const contractor = {
      id,
      time_zone: "America/Chicago",
      working_hours: alwaysWorking,
      capacity: { concurrent_jobs: concurrent, jobs_per_day: 4 },
      base_zip: null,
    } as unknown as Contractor;
    return { contractor, responseMinutes: 15 + Math.floor(rand() * 240) };
  });
  const occupancy: Occupancy = {
    environment: "live",
    zone: "America/Chicago",
    urgency,
    now,
    trade: "plumbing",
    state: "IL",
    readAt: now,
    timelines,
    daySeats,
  };
  return { matches, occupancy };
}

describe("the quote's windows over a pool", () => {
  it("offers each window once, though its contractors' windows came from different builds of the zone's grid", () => {
    const seats = createSeatLedger(unread);
    const at = Date.parse("2027-03-01T15:07:00Z"); // a day of its own: the zone's grid for it is built here
    const zone = "America/Denver";
    const occupancy: Occupancy = {
      ...{ environment: "live", zone, urgency: "urgent", now: at, trade: "plumbing", state: "CO", readAt: at },
      ...{ timelines: new Map(), daySeats: new Map() },
    };
    const match = (id: string, working_hours: Contractor["working_hours"]) => ({
      contractor: {
        ...{ id, time_zone: zone, working_hours, base_zip: null },
        capacity: { concurrent_jobs: 2, jobs_per_day: 8 },
      } as unknown as Contractor,
      responseMinutes: 30,
    });
    const early = match("ctr_grid_a", alwaysWorking);
    const alone = seats.openWindows(occupancy, [early]);
    // eight other days ask for the zone's grid (a sandbox clock): the one of `at` is dropped, then built again
    for (let day = 1; day <= 8; day++) bookableWindows(zone, "urgent", at + day * 24 * hour);
    const late = match("ctr_grid_b", { ...alwaysWorking, sunday: [] }); // other hours: worked out afresh
    const both = seats.openWindows(occupancy, [early, late]);
    const starts = both.map((open) => open.window.start);
    assert.equal(new Set(starts).size, starts.length, "no window twice");
    assert.deepEqual(
      starts,
      alone.map((open) => open.window.start),
    );
  });

  for (const [seed, urgency] of [
    [1, "urgent"],
    [2, "routine"],
    [3, "scheduled"],
    [4, "emergency"],
  ] as const)
    it(`are each candidate's windows merged: earliest arrival and grade (${urgency}, seed ${seed})`, () => {
      const seats = createSeatLedger(unread); // openWindows works on the occupancy given: no read
      const { matches, occupancy } = pool(seed, 12, urgency);
      const merged = new Map<number, { end: number; earliest: number; technicians: number }>();
      for (const match of matches)
        for (const open of seats.openWindows(occupancy, [match])) {
          const seen = merged.get(open.window.start);
          merged.set(open.window.start, {
            end: open.window.end,
            earliest: Math.min(seen?.earliest ?? Infinity, open.earliest),
            technicians: (seen?.technicians ?? 0) + open.technicians,
          });
        }
      const expected = [...merged]
        .sort(([a], [b]) => a - b)
        .map(([start, { end, earliest, technicians }]) => ({
          start,
          earliest,
          confidence: confidenceOf(end, earliest, technicians),
        }));
      const pooled = seats.openWindows(occupancy, matches);
      assert.ok(expected.length > (urgency === "emergency" ? 1 : 10), "the pool offers windows");
      assert.deepEqual(
        pooled.map(({ window, earliest, confidence }) => ({ start: window.start, earliest, confidence })),
        expected,
      );
      if (urgency !== "emergency")
        assert.ok(new Set(expected.map((w) => w.confidence)).size > 1, "the pool's windows are graded differently");
    });
});
