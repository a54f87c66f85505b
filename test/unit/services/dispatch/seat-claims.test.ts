// This instance's claims on technicians' time and day seats (seat-claims.ts): what a booking picked holds
// until its write ends, then for the reads begun before that, and how the ledger's picks step around them.
import { strict as assert } from "node:assert";
import type { Db } from "../../../../server/db/knex.js";
import { createSeatLedger, type Booking, type Occupancy } from "../../../../server/services/dispatch/bookings.js";
import { createClaims } from "../../../../server/services/dispatch/seat-claims.js";
import type { Contractor } from "../../../../server/services/dispatch/contractors.js";
import type { Match } from "../../../../server/services/dispatch/matching.js";
import { alwaysWorking } from "../../../../server/services/dispatch/working-hours.js";
import { gridWindowAt } from "../../../../server/services/dispatch/arrival-windows.js";

const hour = 3_600_000;
const at = (hhmm: string) => Date.parse(`2026-12-01T${hhmm}:00Z`);
const window = gridWindowAt("UTC", at("14:00"), at("10:00"))!;
const booking = (seat: number, from: string, until: string, daySeat = 0): Booking => ({
  environment: "live",
  contractorId: "ctr_a",
  window,
  seat,
  day: "2026-12-01",
  daySeat,
  arrival: at(from) + hour / 2,
  busy: { from: at(from), until: at(until) },
  driveMinutes: 30,
});

describe("seat claims", () => {
  it("hold a picked booking's technician and day seat for every read until its write ends", () => {
    const claims = createClaims();
    assert.ok(claims.none());
    const held = booking(1, "13:30", "15:00", 2);
    claims.hold(held);
    assert.ok(!claims.none());
    assert.deepEqual(claims.busy("ctr_a", 1, Date.now() + hour), [held.busy]); // pending: any read
    assert.deepEqual(claims.busy("ctr_a", 0, Date.now()), []); // another technician
    assert.deepEqual(claims.busy("ctr_b", 1, Date.now()), []); // another contractor
    assert.ok(claims.daySeat("ctr_a", "2026-12-01", 2, Date.now() + hour));
    assert.ok(!claims.daySeat("ctr_a", "2026-12-01", 1, Date.now()));
    assert.ok(!claims.daySeat("ctr_a", "2026-12-02", 2, Date.now()));
  });

  it("once released, hold only for the reads begun before the write ended", () => {
    const claims = createClaims();
    const held = booking(0, "13:30", "15:00");
    claims.hold(held);
    const before = Date.now() - 1;
    claims.release({ ...held, busy: { ...held.busy } }); // the same booking, as another object
    const after = Date.now() + 1;
    assert.deepEqual(claims.busy("ctr_a", 0, before), [held.busy]);
    assert.deepEqual(claims.busy("ctr_a", 0, after), []);
    assert.ok(claims.daySeat("ctr_a", "2026-12-01", 0, before));
    assert.ok(!claims.daySeat("ctr_a", "2026-12-01", 0, after));
  });

  it("keep a second pick of the same read off the first one's technician time and day seat", () => {
    const contractor = {
      id: "ctr_a",
      time_zone: "UTC",
      working_hours: alwaysWorking,
      capacity: { concurrent_jobs: 2, jobs_per_day: 2 },
      base_zip: null,
    } as unknown as Contractor;
    const match: Match = { contractor, coverage: "state", responseMinutes: 15, costCents: 10_000 };
    const occupancy: Occupancy = {
      environment: "live",
      zone: "UTC",
      urgency: "routine",
      now: at("13:10"),
      trade: "plumbing",
      readAt: Date.now(),
      timelines: new Map(),
      daySeats: new Map(),
    };
    const seats = createSeatLedger({} as unknown as Db); // book() works on the occupancy given: no read
    const picks = [1, 2, 3].map(() => seats.book(occupancy, [match]));
    const [first, second, third] = picks.map((pick) => pick.plan?.booking);
    assert.ok(first && second);
    assert.notEqual(first.seat, second.seat); // both technicians free: the second pick takes the other one
    assert.notEqual(first.daySeat, second.daySeat);
    assert.notEqual(third?.day, first.day); // both day seats claimed: another day
    seats.release(first);
    seats.release(second);
    seats.release(third);
  });
});
