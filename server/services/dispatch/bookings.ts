// Capacity: a contractor takes `concurrent_jobs` orders per arrival window and `jobs_per_day` per day on its own
// clock. An assigned order holds one seat of each (contractor_bookings: a window seat 0..concurrent_jobs-1 and a
// day seat 0..jobs_per_day-1, each under a UNIQUE index), so the database itself refuses a seat taken twice, by this
// instance or another: the loser's write fails with 23505 and it reads again and picks again (bounded retries).
//
// What a quote or order reads is ONE indexed query: the bookings of its candidates over the horizon's days
// (contractor_bookings_day_seat). Seats are then picked in memory: the lowest free one. Within one instance, seats
// picked but not yet written (or written after this read began) are held in the ledger's claims, so two orders of
// the same instance never pick the same seat from the same stale read; only instances race, through the indexes.
import type { Db } from "../../db/knex.js";
import {
  bookableWindows,
  horizonMs,
  isBookable,
  workedWindows,
  type ArrivalWindow,
  type WorkedWindow,
} from "./arrival-windows.js";
import type { Contractor } from "./contractors.js";
import type { Match } from "./matching.js";
import type { Urgency } from "./trades.js";

/** One booking as read: its window's start (ms), its seats and the contractor's local day. */
interface BookingRead {
  contractor_id: string;
  start_ms: number;
  seat: number | null;
  local_day: string;
  day_seat: number;
}

/** A seat pair picked for an order: written with it (contractor_bookings), released if it is not. */
export interface Booking {
  contractorId: string;
  window: ArrivalWindow;
  seat: number;
  day: string;
  daySeat: number;
}

/** The taken seats of the candidates, by window and by day, as of one read. */
export interface Occupancy {
  readAt: number;
  zone: string;
  urgency: Urgency;
  now: number;
  windowSeats: Map<string, Set<number>>;
  daySeats: Map<string, Set<number>>;
}

const day = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const windowKey = (contractorId: string, start: number) => `${contractorId}|${start}`;
const dayKey = (contractorId: string, localDay: string) => `${contractorId}|${localDay}`;
/** How long a written seat stays claimed for reads begun before its write ended. */
const claimLingerMs = 10_000;

/** The booking row an order writes: the json form the writer's statement inserts. */
export const bookingRow = (orderId: string, booking: Booking) => ({
  order_id: orderId,
  contractor_id: booking.contractorId,
  window_start: new Date(booking.window.start).toISOString(),
  window_end: new Date(booking.window.end).toISOString(),
  seat: booking.seat,
  local_day: booking.day,
  day_seat: booking.daySeat,
});
export const bookingColumns = [
  "order_id",
  "contractor_id",
  "window_start",
  "window_end",
  "seat",
  "local_day",
  "day_seat",
] as const satisfies readonly (keyof ReturnType<typeof bookingRow>)[];

/** Whether an error is a seat taken meanwhile (the booking's unique indexes; the order's keys are told apart by
 * the caller, which looks for a prior order first). */
export const isSeatTaken = (error: unknown) =>
  typeof error === "object" &&
  error !== null &&
  "code" in error &&
  error.code === "23505" &&
  (!("constraint" in error) || String(error.constraint).startsWith("contractor_bookings"));

/** Seats picked by this instance: `w|contractor|start|seat` / `d|contractor|day|seat` → when the write ended
 * (Infinity while pending). A seat counts as taken for a read begun before its write ended. */
function createClaims() {
  const ended = new Map<string, number>();
  let purgedAt = 0;
  const keysOf = (b: Booking) => [
    `w|${b.contractorId}|${b.window.start}|${b.seat}`,
    `d|${b.contractorId}|${b.day}|${b.daySeat}`,
  ];
  return {
    has: (key: string, readAt: number) => (ended.get(key) ?? -1) >= readAt,
    hold: (booking: Booking) => {
      keysOf(booking).forEach((key) => ended.set(key, Infinity));
    },
    release(booking: Booking): void {
      const now = Date.now();
      keysOf(booking).forEach((key) => ended.set(key, now));
      if (now - purgedAt < 1000) return;
      purgedAt = now;
      for (const [key, at] of ended) if (at < now - claimLingerMs) ended.delete(key);
    },
  };
}
type Claims = ReturnType<typeof createClaims>;

/** The lowest seat below `capacity` neither taken in the read nor claimed here. */
function lowestFree(taken: Set<number> | undefined, capacity: number, claimed: (seat: number) => boolean) {
  for (let seat = 0; seat < capacity; seat++) if (!taken?.has(seat) && !claimed(seat)) return seat;
  return null;
}

/** The contractor's seats in a worked window, or null when the window or the day is full. */
function seatsIn(claims: Claims, occupancy: Occupancy, contractor: Contractor, worked: WorkedWindow): Booking | null {
  const { id, capacity } = contractor;
  const { window, day: localDay } = worked;
  const at = occupancy.readAt;
  const seat = lowestFree(occupancy.windowSeats.get(windowKey(id, window.start)), capacity.concurrent_jobs, (s) =>
    claims.has(`w|${id}|${window.start}|${s}`, at),
  );
  if (seat === null) return null;
  const daySeat = lowestFree(occupancy.daySeats.get(dayKey(id, localDay)), capacity.jobs_per_day, (s) =>
    claims.has(`d|${id}|${localDay}|${s}`, at),
  );
  return daySeat === null ? null : { contractorId: id, window, seat, day: localDay, daySeat };
}

/** The contractor's worked windows bookable now for the occupancy's urgency (or the one asked for). */
function* windowsFor(occupancy: Occupancy, contractor: Contractor, requested?: ArrivalWindow) {
  const { zone, urgency, now } = occupancy;
  for (const worked of workedWindows(contractor, zone, now)) {
    if (worked.window.start >= now + horizonMs[urgency]) return;
    if (requested ? worked.window.start === requested.start : isBookable(worked.window, urgency, now)) yield worked;
  }
}

const addTo = (map: Map<string, Set<number>>, key: string, seat: number) => {
  const seats = map.get(key);
  if (seats) seats.add(seat);
  else map.set(key, new Set([seat]));
};

/** ONE indexed read: the candidates' bookings over the days the urgency's horizon can touch. */
async function readOccupancy(
  db: Db,
  candidates: Contractor[],
  job: Omit<Occupancy, "readAt" | "windowSeats" | "daySeats">,
) {
  const { urgency, now } = job;
  const occupancy: Occupancy = { ...job, readAt: Date.now(), windowSeats: new Map(), daySeats: new Map() };
  if (!candidates.length) return occupancy;
  const rows: BookingRead[] = await db("contractor_bookings")
    .whereIn(
      "contractor_id",
      candidates.map((c) => c.id),
    )
    .whereBetween("local_day", [dayText(now - 2 * day), dayText(now + horizonMs[urgency] + 2 * day)])
    .select(
      "contractor_id",
      "seat",
      "day_seat",
      db.raw("local_day::text as local_day"),
      db.raw("extract(epoch from window_start)::float8 * 1000 as start_ms"),
    );
  for (const row of rows) {
    addTo(occupancy.daySeats, dayKey(row.contractor_id, row.local_day), row.day_seat);
    if (row.seat !== null) addTo(occupancy.windowSeats, windowKey(row.contractor_id, row.start_ms), row.seat);
  }
  return occupancy;
}

export function createSeatLedger(db: Db) {
  const claims = createClaims();
  return {
    read: (candidates: Contractor[], zone: string, urgency: Urgency, now: number) =>
      readOccupancy(db, candidates, { zone, urgency, now }),

    /** The windows some candidate can still take (the quote's `arrival_windows`), in time order. */
    openWindows(occupancy: Occupancy, matches: Match[]): ArrivalWindow[] {
      const open = new Set<ArrivalWindow>();
      for (const { contractor } of matches)
        for (const worked of windowsFor(occupancy, contractor))
          if (!open.has(worked.window) && seatsIn(claims, occupancy, contractor, worked)) open.add(worked.window);
      return bookableWindows(occupancy.zone, occupancy.urgency, occupancy.now).filter((window) => open.has(window));
    },

    /** The first match (in rank order) with a free seat: in the requested window, or in its earliest bookable one.
     * The seats are claimed until `release`; null when nobody can take the job. */
    book(occupancy: Occupancy, matches: Match[], requested?: ArrivalWindow): { match: Match; booking: Booking } | null {
      for (const match of matches)
        for (const worked of windowsFor(occupancy, match.contractor, requested)) {
          const booking = seatsIn(claims, occupancy, match.contractor, worked);
          if (!booking) continue;
          claims.hold(booking);
          return { match, booking };
        }
      return null;
    },

    /** The booking's write ended (committed or not): its claims linger for reads begun before now. */
    release(booking: Booking | null | undefined): void {
      if (booking) claims.release(booking);
    },
  };
}

export type SeatLedger = ReturnType<typeof createSeatLedger>;
