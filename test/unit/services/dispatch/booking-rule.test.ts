import { strict as assert } from "node:assert";
import {
  bookingOutcome,
  pickBooking,
  type BookRequest,
  type FirstSeat,
} from "../../../../server/services/dispatch/booking-rule.js";
import type { ArrivalWindow } from "../../../../server/services/dispatch/arrival-windows.js";
import type { Booking } from "../../../../server/services/dispatch/bookings.js";
import type { Contractor } from "../../../../server/services/dispatch/contractors.js";
import type { Match } from "../../../../server/services/dispatch/matching.js";
import type { Urgency } from "../../../../server/services/dispatch/trades.js";

const hour = 3_600_000;
const windowAt = (hours: number): ArrivalWindow => ({
  start: hours * hour,
  end: (hours + 2) * hour,
  startText: `h${hours}`,
  endText: `h${hours + 2}`,
});

/** A ranked pool (rank = array order): each contractor's free windows (hours from 0) and price. */
interface Free {
  id: string;
  hours: number[];
  costCents?: number;
  /** Takes emergencies (emergency_capable). */
  outfit?: boolean;
  /** base_response_minutes: 60 by default, 30 for urgent work; over 240 it never reaches urgent work in 2 hours. */
  base?: number;
}
const matchOf = ({ id, costCents = 10_000, outfit = false, base = 60 }: Free): Match => ({
  contractor: { id, emergency_capable: outfit, base_response_minutes: base } as Contractor,
  coverage: "state",
  responseMinutes: 30,
  costCents,
});

/** The ledger's side, on a table of free windows; records each `before` it was asked with. */
function ledger(pool: Free[]) {
  const asked: [string, number][] = [];
  const firstSeat: FirstSeat = (match, before) => {
    asked.push([match.contractor.id, before]);
    const hours = pool.find((free) => free.id === match.contractor.id)!.hours;
    const start = hours.find((h) => h * hour < before);
    if (start === undefined) return null;
    const window = windowAt(start);
    return {
      environment: "live",
      contractorId: match.contractor.id,
      window,
      seat: 0,
      day: "d",
      daySeat: 0,
      arrival: window.start,
      busy: { from: window.start, until: window.end },
      driveMinutes: 30,
    } satisfies Booking;
  };
  return { firstSeat, asked, matches: pool.map(matchOf) };
}

function pick(pool: Free[], urgency: Urgency, request: BookRequest = {}) {
  const { firstSeat, matches } = ledger(pool);
  const picked = pickBooking(matches, urgency, request, firstSeat);
  return picked && `${picked.match.contractor.id}@${picked.booking.window.start / hour}`;
}

describe("booking rule", () => {
  describe("pickBooking()", () => {
    const pool: Free[] = [
      { id: "first", hours: [10, 12] },
      { id: "second", hours: [4] },
      { id: "third", hours: [4, 6] },
    ];
    const cases: [Urgency, string][] = [
      ["emergency", "second@4"], // the earliest arrival among capable contractors, not rank order
      ["urgent", "second@4"],
      ["routine", "second@4"],
      ["scheduled", "second@4"],
    ];
    for (const [urgency, expected] of cases)
      it(`books ${expected} for ${urgency} (rank 1 free at 10 h, ranks 2 and 3 at 4 h)`, () => {
        assert.equal(pick(pool, urgency), expected);
      });

    it("keeps rank order for a requested window and for a quote's contractor", () => {
      assert.equal(pick(pool, "routine", { window: windowAt(4) }), "first@10"); // the ledger filters the window
      assert.equal(pick(pool, "routine", { quoted: true }), "first@10");
    });

    it("prefers a later window within the NTE to an earlier one over it", () => {
      const priced: Free[] = [
        { id: "cheap-late", hours: [20], costCents: 9_000 },
        { id: "dear-early", hours: [2], costCents: 12_000 },
      ];
      assert.equal(pick(priced, "urgent", { nteCents: 10_000 }), "cheap-late@20");
      assert.equal(pick(priced, "urgent", { nteCents: 12_000 }), "dear-early@2");
      assert.equal(pick(priced, "urgent"), "dear-early@2");
    });

    it("falls back to the earliest match over the NTE only when none within it has a seat", () => {
      const priced: Free[] = [
        { id: "cheap-full", hours: [], costCents: 9_000 },
        { id: "dear-late", hours: [8], costCents: 12_000 },
        { id: "dearer-early", hours: [3], costCents: 13_000 },
      ];
      assert.equal(pick(priced, "routine", { nteCents: 10_000 }), "dearer-early@3");
    });

    it("keeps rank order in a re-offer's kept window, within the NTE first", () => {
      const priced: Free[] = [
        { id: "dear", hours: [4], costCents: 12_000 },
        { id: "cheap", hours: [4], costCents: 9_000 },
      ];
      const kept = { window: windowAt(4), nteCents: 10_000 };
      assert.equal(pick(priced, "routine", { ...kept, keptWindow: true }), "cheap@4");
      assert.equal(pick(priced, "routine", kept), "dear@4"); // the customer's window: rank order only
    });

    describe("a job with its deadline", () => {
      const deadline = 24 * hour;
      for (const urgency of ["routine", "scheduled"] as const)
        it(`goes to the best-ranked match arriving by its deadline (${urgency}), not the earliest`, () => {
          assert.equal(pick(pool, urgency, { deadline }), "first@10");
          assert.equal(pick(pool, urgency, { deadline: 11 * hour }), "first@10"); // arrives at 10 h, by 11 h
        });

      it("takes the earliest arrival when no match arrives by the deadline", () => {
        assert.equal(pick(pool, "routine", { deadline: 3 * hour }), "second@4");
      });

      it("spares the matches that take emergencies while another arrives by the deadline", () => {
        const mixed: Free[] = [
          { id: "outfit", hours: [2], outfit: true },
          { id: "shop", hours: [8] },
        ];
        assert.equal(pick(mixed, "routine", { deadline }), "shop@8");
        assert.equal(pick(mixed, "routine", { deadline: 6 * hour }), "outfit@2"); // the shop is too late
      });

      it("gives calm work first to the shops too slow for urgent work, while one arrives by the deadline", () => {
        const shops: Free[] = [
          { id: "fast", hours: [4] }, // urgent response 30 minutes: it can take urgent work
          { id: "slow", hours: [8], base: 300 }, // urgent response 150 minutes: past urgent work's 2 hours
          { id: "outfit", hours: [2], outfit: true, base: 300 },
        ];
        for (const urgency of ["routine", "scheduled"] as const) {
          assert.equal(pick(shops, urgency, { deadline }), "slow@8");
          assert.equal(pick(shops, urgency, { deadline: 6 * hour }), "fast@4"); // the slow shop is too late
          assert.equal(pick(shops, urgency, { deadline: 3 * hour }), "outfit@2"); // only the outfit by then
        }
        assert.equal(pick(shops, "urgent", { deadline }), "fast@4"); // urgent work: the earliest arrival
        // 240 minutes (120 for urgent work) still reaches urgent work by its deadline: rank order decides
        assert.equal(pick([shops[0], { ...shops[1], base: 240 }], "routine", { deadline }), "fast@4");
      });

      it("takes urgent work's earliest arrival by the deadline, sparing the matches that take emergencies", () => {
        assert.equal(pick(pool, "urgent", { deadline }), "second@4"); // the earliest, not the best-ranked
        const mixed: Free[] = [
          { id: "outfit", hours: [2], outfit: true },
          { id: "shop", hours: [8] },
          { id: "later-shop", hours: [9] },
        ];
        assert.equal(pick(mixed, "urgent", { deadline: 10 * hour }), "shop@8");
        assert.equal(pick(mixed, "urgent", { deadline: 6 * hour }), "outfit@2"); // no shop arrives by then
        assert.equal(pick(mixed, "urgent"), "outfit@2"); // no deadline known: the earliest arrival
      });

      it("still tries the matches within the NTE first, and keeps a requested window's rank order", () => {
        const priced: Free[] = [
          { id: "dear", hours: [2], costCents: 12_000 },
          { id: "cheap", hours: [20], costCents: 9_000 },
        ];
        assert.equal(pick(priced, "routine", { deadline, nteCents: 10_000 }), "cheap@20");
        assert.equal(pick(pool, "routine", { deadline, window: windowAt(4) }), "first@10");
      });
    });

    it("returns null when nobody has a seat", () => {
      assert.equal(pick([{ id: "full", hours: [] }], "routine"), null);
    });

    it("asks each later match only for windows starting before the best found so far", () => {
      const { firstSeat, asked, matches } = ledger([
        { id: "a", hours: [10] },
        { id: "b", hours: [6] },
        { id: "c", hours: [8] },
      ]);
      pickBooking(matches, "routine", {}, firstSeat);
      assert.deepEqual(asked, [
        ["a", Infinity],
        ["b", 10 * hour],
        ["c", 6 * hour],
      ]);
    });
  });

  describe("bookingOutcome()", () => {
    const outcome = (pool: Free[], request: BookRequest) => {
      const { firstSeat, matches } = ledger(pool);
      const booked = bookingOutcome(pickBooking(matches, "routine", request, firstSeat), matches, request);
      return `${booked.kind}:${booked.match?.contractor.id ?? "-"}${booked.plan ? "@seat" : ""}`;
    };

    it("assigns within the NTE and holds a pick over it at its price", () => {
      const pool: Free[] = [{ id: "a", hours: [4], costCents: 10_000 }];
      assert.equal(outcome(pool, { nteCents: 10_000 }), "assign:a@seat");
      assert.equal(outcome(pool, { nteCents: 9_999 }), "hold:a@seat");
    });

    it("holds without a seat when every match is over the NTE, at the first one's price", () => {
      const pool: Free[] = [
        { id: "dear", hours: [], costCents: 12_000 },
        { id: "dearer", hours: [], costCents: 13_000 },
      ];
      assert.equal(outcome(pool, { nteCents: 10_000 }), "hold:dear");
      assert.equal(outcome(pool, {}), "none:dear");
    });

    it("waits (none) at the first price within the NTE when nobody has a seat and one is within it", () => {
      const pool: Free[] = [
        { id: "dear-full", hours: [], costCents: 12_000 },
        { id: "cheap-full", hours: [], costCents: 9_000 },
      ];
      assert.equal(outcome(pool, { nteCents: 10_000 }), "none:cheap-full");
      // a quote's contractor keeps its price: held when it is over the NTE
      assert.equal(outcome(pool, { nteCents: 10_000, quoted: true }), "hold:dear-full");
    });

    it("is none without a match when nobody serves the job", () => {
      assert.equal(outcome([], { nteCents: 10_000 }), "none:-");
    });
  });
});
