// The seat ledger: a contractor's technicians' timelines and day seats, read in one query, picked in memory, and
// written under UNIQUE indexes (technician_slots, the day seats), per environment. Why, and the measured figures:
// docs/decisions.md#seats-and-the-booking-rule and #technicians-time.
import type { Db } from "../../db/knex.js";
import type { Environment } from "../shared/tenant.js";
import {
  bookableUntilBeforeEndMs,
  firstEndingAfter,
  horizonMs,
  workedWindows,
  type ArrivalWindow,
  type WorkedWindow,
} from "./arrival-windows.js";
import {
  createBookingReader,
  createRecentReads,
  dayKey,
  readOccupancy,
  technicianKey,
  type Job,
  type Occupancy,
} from "./booking-reads.js";
import { createClaims, type Claims } from "./seat-claims.js";
import { bookingOutcome, pickBooking, type BookingOutcome, type Booking, type BookRequest } from "./booking-rule.js";
import type { Contractor } from "./contractors.js";
import type { Match } from "./matching.js";
import { earliestArrival, expectedWorkMinutes, type JobTime } from "./technician-time.js";
import { travelMinutes, travelReady } from "./travel.js";
import { confidenceOf, gradedTechnicians, type Confidence } from "./window-confidence.js";

/** A window a quote may offer: the earliest arrival a candidate's technician can make in it, and how sure that is. */
export interface OpenWindow {
  window: ArrivalWindow;
  earliest: number;
  /** Technicians that can arrive in it, counted up to what its grade needs (gradedTechnicians) or more. */
  technicians: number;
  confidence: Confidence;
}

export type { Booking } from "./booking-rule.js";
export { dayKey, technicianKey, type Job, type Occupancy } from "./booking-reads.js";

/** The booking row an order writes: the json form the writer's statement inserts. */
export const bookingRow = (orderId: string, booking: Booking) => ({
  order_id: orderId,
  environment: booking.environment,
  contractor_id: booking.contractorId,
  window_start: new Date(booking.window.start).toISOString(),
  window_end: new Date(booking.window.end).toISOString(),
  seat: booking.seat,
  local_day: booking.day,
  day_seat: booking.daySeat,
  arrival_at: new Date(booking.arrival).toISOString(),
  busy_from: new Date(booking.busy.from).toISOString(),
  busy_until: new Date(booking.busy.until).toISOString(),
  drive_minutes: booking.driveMinutes,
});
export const bookingColumns = [
  "order_id",
  "environment",
  "contractor_id",
  "window_start",
  "window_end",
  "seat",
  "local_day",
  "day_seat",
  "arrival_at",
  "busy_from",
  "busy_until",
  "drive_minutes",
] as const satisfies readonly (keyof ReturnType<typeof bookingRow>)[];

/** Whether an error is a seat taken meanwhile (the day seats' unique index, or a technician's slot). */
export const isSeatTaken = (error: unknown) =>
  typeof error === "object" &&
  error !== null &&
  "code" in error &&
  error.code === "23505" &&
  (!("constraint" in error) || /^(contractor_bookings|technician_slots)/.test(String(error.constraint)));

/** Reads, matches and writes at most this many times when other instances take the seats picked. */
export const seatAttempts = 4;

/** The lowest seat below `capacity` neither taken in the read nor claimed here. */
export function lowestFree(
  taken: Set<number> | undefined,
  capacity: number,
  claimed: (seat: number) => boolean = () => false,
) {
  for (let seat = 0; seat < capacity; seat++) if (!taken?.has(seat) && !claimed(seat)) return seat;
  return null;
}

/** What the match's job asks of its technicians: its drive, its expected work, the match's response. */
export const jobTimeOf = (
  match: Pick<Match, "contractor" | "responseMinutes">,
  job: Pick<Job, "now" | "trade" | "zip" | "state" | "city">,
): JobTime => ({
  travelMs: travelMinutes(match, job) * 60_000,
  workMs: expectedWorkMinutes(job.trade) * 60_000,
  earliest: job.now + match.responseMinutes * 60_000,
});

/** Each technician's earliest arrival in the window, earliest first (ties: the lowest technician); `time`: the job's
 * for this match, when the caller has it already. */
function arrivalsIn(
  claims: Claims,
  occupancy: Occupancy,
  match: Pick<Match, "contractor" | "responseMinutes">,
  worked: WorkedWindow,
  time: JobTime = jobTimeOf(match, occupancy),
) {
  const { id, capacity } = match.contractor;
  const { readAt: at } = occupancy;
  const unclaimed = claims.none();
  const arrivals = [];
  for (let technician = 0; technician < capacity.concurrent_jobs; technician++) {
    const read = occupancy.timelines.get(technicianKey(id, technician)) ?? [];
    const claimed = unclaimed ? [] : claims.busy(id, technician, at);
    const busy = claimed.length ? [...read, ...claimed] : read;
    const placement = earliestArrival(busy, worked.window, time);
    if (placement) arrivals.push({ technician, ...placement });
  }
  return arrivals.sort((a, b) => a.arrival - b.arrival || a.technician - b.technician);
}

/** The contractor's lowest day seat on its local day neither taken in the read nor claimed here, or null. */
function freeDaySeat(claims: Claims, occupancy: Occupancy, contractor: Contractor, localDay: string) {
  const { id, capacity } = contractor;
  const unclaimed = claims.none();
  return lowestFree(occupancy.daySeats.get(dayKey(id, localDay)), capacity.jobs_per_day, (s) =>
    unclaimed ? false : claims.daySeat(id, localDay, s, occupancy.readAt),
  );
}

/** The contractor's earliest technician in a worked window and a day seat, or null when none can arrive in it. */
function seatsIn(claims: Claims, occupancy: Occupancy, match: Match, worked: WorkedWindow): Booking | null {
  const { id } = match.contractor;
  const { window, day: localDay } = worked;
  const { environment } = occupancy;
  const [first] = arrivalsIn(claims, occupancy, match, worked);
  if (!first) return null;
  const daySeat = freeDaySeat(claims, occupancy, match.contractor, localDay);
  if (daySeat === null) return null;
  const { technician: seat, arrival, busy, driveMs } = first;
  const driveMinutes = Math.round(driveMs / 60_000);
  return { environment, contractorId: id, window, seat, day: localDay, daySeat, arrival, busy, driveMinutes };
}

/** The contractor's worked windows bookable now (or the one asked for), in time order, starting before `before`. */
function windowsFor(
  occupancy: Occupancy,
  contractor: Contractor,
  requested?: ArrivalWindow,
  before = Infinity,
): WorkedWindow[] {
  const { zone, urgency, now } = occupancy;
  const worked = workedWindows(contractor, zone, now);
  if (requested) return worked.filter(({ window }) => window.start === requested.start && window.start < before);
  const windows: WorkedWindow[] = [];
  const first = firstEndingAfter(worked, now + bookableUntilBeforeEndMs, (item) => item.window);
  const until = Math.min(now + horizonMs[urgency], before);
  for (let i = first; i < worked.length; i++) {
    if (worked[i].window.start >= until) break;
    windows.push(worked[i]);
  }
  return windows;
}

function openWindowsOf(
  claims: Claims,
  occupancy: Occupancy,
  matches: Pick<Match, "contractor" | "responseMinutes">[],
): OpenWindow[] {
  // by start, not by object: worked windows cached from another build of the zone's grid hold other objects
  const open = new Map<number, { window: ArrivalWindow; earliest: number; technicians: number }>();
  for (const match of matches) {
    const time = jobTimeOf(match, occupancy); // the same for each of its windows
    for (const worked of windowsFor(occupancy, match.contractor)) {
      const seen = open.get(worked.window.start);
      // settled: enough technicians for its grade, and this match arrives no earlier than its earliest (never before
      // the window's start nor its own response), so it changes neither; a big pool's quote skips most of its work
      if (
        seen &&
        seen.technicians >= gradedTechnicians &&
        seen.earliest <= Math.max(worked.window.start, time.earliest)
      )
        continue;
      if (freeDaySeat(claims, occupancy, match.contractor, worked.day) === null) continue;
      const arrivals = arrivalsIn(claims, occupancy, match, worked, time);
      if (!arrivals.length) continue;
      const earliest = Math.min(seen?.earliest ?? Infinity, arrivals[0].arrival);
      const technicians = (seen?.technicians ?? 0) + arrivals.length;
      open.set(worked.window.start, { window: worked.window, earliest, technicians });
    }
  }
  return [...open.values()]
    .map(({ window, earliest, technicians }) => ({
      window,
      earliest,
      technicians,
      confidence: confidenceOf(window.end, earliest, technicians),
    }))
    .sort((a, b) => a.window.start - b.window.start);
}

/** One environment's ledger on this instance: its reads (grouped, recent ones reused) and its claims. */
function createWorldLedger(db: Db, environment: Environment) {
  const read = createBookingReader(db, environment);
  return { claims: createClaims(), read, recent: createRecentReads(read) };
}

export function createSeatLedger(db: Db) {
  const worlds = { live: createWorldLedger(db, "live"), test: createWorldLedger(db, "test") };
  return {
    /** One grouped read of the candidates' bookings over the urgency's horizon; a recent one will do unless `fresh`. */
    async read(candidates: readonly Contractor[], job: Job, fresh = false) {
      const { read, recent } = worlds[job.environment];
      await travelReady();
      return readOccupancy(fresh ? read : (ids, days) => recent.read(ids, days), candidates, job);
    },

    /** Seats were freed or taken here (a cancel, a completion, an assignment): quotes read afresh. */
    changed(): void {
      for (const world of Object.values(worlds)) world.recent.clear();
    },

    /** The windows some candidate's technician can reach, in time order, with its earliest arrival and confidence. */
    openWindows(occupancy: Occupancy, matches: Pick<Match, "contractor" | "responseMinutes">[]): OpenWindow[] {
      return openWindowsOf(worlds[occupancy.environment].claims, occupancy, matches);
    },

    /** The booking rule's outcome (booking-rule.ts); a plan's seats are claimed until `release`. */
    book(occupancy: Occupancy, matches: Match[], request: BookRequest = {}): BookingOutcome {
      const { claims } = worlds[occupancy.environment];
      const firstSeat = (match: Match, before: number) => {
        for (const worked of windowsFor(occupancy, match.contractor, request.window, before)) {
          const booking = seatsIn(claims, occupancy, match, worked);
          if (booking) return booking;
        }
        return null;
      };
      const picked = pickBooking(matches, occupancy.urgency, request, firstSeat);
      if (picked) claims.hold(picked.booking);
      return bookingOutcome(picked, matches, request);
    },

    /** The booking's write ended (committed or not): its claims linger for reads begun before now. */
    release(booking: Booking | null | undefined): void {
      if (!booking) return;
      worlds[booking.environment].claims.release(booking);
    },
  };
}

export type SeatLedger = ReturnType<typeof createSeatLedger>;
