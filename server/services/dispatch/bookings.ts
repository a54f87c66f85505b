// Capacity: a contractor takes `concurrent_jobs` orders per arrival window and `jobs_per_day` per day on its own
// clock. An assigned order holds one seat of each (contractor_bookings: a window seat 0..concurrent_jobs-1 and a
// day seat 0..jobs_per_day-1, each under a UNIQUE index), so the database itself refuses a seat taken twice, by this
// instance or another: the loser's write fails with 23505 and it reads again and picks again (bounded retries).
//
// What a quote or order reads is ONE indexed query: the bookings of its candidates over the horizon's days
// (contractor_bookings_day_seat). Seats are then picked in memory: the lowest free one. Within one instance, seats
// picked but not yet written (or written after this read began) are held in the ledger's claims, so two orders of
// the same instance never pick the same seat from the same stale read; only instances race, through the indexes.
// Reads that arrive together share one statement (createBookingReader), and a first attempt may take a read of the
// same contractors at most recentReadMs old: what another instance booked since is refused by the indexes (and the
// retry reads afresh), what this instance booked since is in the claims, and what it freed (a cancel, a completion)
// clears the recent reads. So a quote or order under load rarely costs a statement of its own; the price is that a
// seat another instance freed in the last quarter second is seen a moment later (the dispatcher's sweep, or the
// next quote, finds it).
//
// Which seat (booking-rule.ts): an emergency goes to the first match in rank order with a seat in its 4-hour horizon
// (finest coverage, then the fastest responder: within 4 h every window is soon, and the responder's speed is what
// the 30-minute deadline asks for); urgent, routine and scheduled jobs take the earliest free window across the
// ranked matches, rank breaking ties. Booking the first-ranked contractor with any seat put a job in that
// contractor's earliest window even when a lower-ranked one was free hours earlier. On the dispatch-day benchmark's
// seeded day (BENCHMARKS.md), on site within the fulfilment deadline, emergency / urgent / routine / scheduled / all:
// rank order for every urgency 22.8 / 36.7 / 43.4 / 85.5 / 48.0 %; the earliest window for every urgency 15.0 / 54.2
// / 79.6 / 89.5 / 68.5 %; this rule 10.2 / 57.6 / 82.8 / 92.3 / 70.9 %. The cost is the emergencies': the other jobs
// now fill the pool's next few hours, which is where an emergency's horizon lies (see BENCHMARKS.md). A requested
// window and a quote's contractor keep rank order (the customer chose them). Matches priced over the order's NTE are
// tried only when none within it has a seat, so an earlier window never costs the order its dispatch (the NTE rule,
// orders/nte-rule.ts, holds an order priced over it; held over NTE fell from 189 to 122 of 2,000 on that day).
import type { Db } from "../../db/knex.js";
import {
  bookableUntilBeforeEndMs,
  firstEndingAfter,
  horizonMs,
  workedWindows,
  type ArrivalWindow,
  type WorkedWindow,
} from "./arrival-windows.js";
import { pickBooking, type BookedMatch, type BookRequest } from "./booking-rule.js";
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
/** How old a read a first attempt may reuse. */
const recentReadMs = 250;

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
    /** Whether nothing is claimed (the common case of a quote: no key to build). */
    none: () => ended.size === 0,
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

/** Reads, matches and writes at most this many times when other instances take the seats picked (creation,
 * assignment and rescheduling alike). */
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

/** The contractor's seats in a worked window, or null when the window or the day is full. */
function seatsIn(claims: Claims, occupancy: Occupancy, contractor: Contractor, worked: WorkedWindow): Booking | null {
  const { id, capacity } = contractor;
  const { window, day: localDay } = worked;
  const at = occupancy.readAt;
  const unclaimed = claims.none();
  const seat = lowestFree(occupancy.windowSeats.get(windowKey(id, window.start)), capacity.concurrent_jobs, (s) =>
    unclaimed ? false : claims.has(`w|${id}|${window.start}|${s}`, at),
  );
  if (seat === null) return null;
  const daySeat = lowestFree(occupancy.daySeats.get(dayKey(id, localDay)), capacity.jobs_per_day, (s) =>
    unclaimed ? false : claims.has(`d|${id}|${localDay}|${s}`, at),
  );
  return daySeat === null ? null : { contractorId: id, window, seat, day: localDay, daySeat };
}

/** The contractor's worked windows bookable now for the occupancy's urgency (or the one asked for), in time order;
 * only those starting before `before` when given (a window no earlier than the best found cannot win). */
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

const addTo = (map: Map<string, Set<number>>, key: string, seat: number) => {
  const seats = map.get(key);
  if (seats) seats.add(seat);
  else map.set(key, new Set([seat]));
};

/** The taken seats of a set of bookings, by window and by day. */
function seatMaps(rows: BookingRead[]): Pick<Occupancy, "windowSeats" | "daySeats"> {
  const maps = { windowSeats: new Map<string, Set<number>>(), daySeats: new Map<string, Set<number>>() };
  for (const row of rows) {
    addTo(maps.daySeats, dayKey(row.contractor_id, row.local_day), row.day_seat);
    if (row.seat !== null) addTo(maps.windowSeats, windowKey(row.contractor_id, row.start_ms), row.seat);
  }
  return maps;
}

/** The bookings of some contractors over some local days: one indexed statement, its text the same every time
 * (named: Postgres plans it once per connection). */
const readBookings = (db: Db, ids: string[], days: [string, string]): Promise<BookingRead[]> =>
  db
    .raw(
      `select contractor_id, seat, day_seat, local_day::text as local_day,
              extract(epoch from window_start)::float8 * 1000 as start_ms
         from contractor_bookings
        where contractor_id in (select json_array_elements_text(?::json)) and local_day between ?::date and ?::date`,
      [JSON.stringify(ids), ...days],
    )
    .options({ name: "dispatch_read_bookings" })
    .then((result: { rows: BookingRead[] }) => result.rows);

interface WaitingRead {
  ids: string[];
  days: [string, string];
  resolve: (seats: Pick<Occupancy, "readAt" | "windowSeats" | "daySeats">) => void;
  reject: (error: unknown) => void;
}

/**
 * Group read: the reads that arrive while one is in flight go out together in the next statement (the group
 * commit's pattern, db/group-commit.ts), so a busy server reads the bookings once for every quote and order waiting
 * rather than once each; an idle one reads at once. Each read gets the seats of the whole batch (a superset of its
 * own), as of the moment that statement began.
 */
function createBookingReader(db: Db) {
  const queue: WaitingRead[] = [];
  let reading = false;
  async function readBatch(batch: WaitingRead[]) {
    const readAt = Date.now();
    const ids = [...new Set(batch.flatMap((waiting) => waiting.ids))];
    const from = batch.map((waiting) => waiting.days[0]).sort()[0];
    const to = batch.map((waiting) => waiting.days[1]).sort()[batch.length - 1];
    try {
      const seats = { readAt, ...seatMaps(await readBookings(db, ids, [from, to])) };
      for (const waiting of batch) waiting.resolve(seats);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
  async function drain() {
    while (queue.length) await readBatch(queue.splice(0, 64));
    reading = false;
  }
  return (ids: string[], days: [string, string]) =>
    new Promise<Pick<Occupancy, "readAt" | "windowSeats" | "daySeats">>((resolve, reject) => {
      queue.push({ ids, days, resolve, reject });
      if (reading) return;
      reading = true;
      setImmediate(() => void drain());
    });
}

type Seats = Pick<Occupancy, "readAt" | "windowSeats" | "daySeats">;

/** A read of the same contractors and days at most recentReadMs old is reused. */
function createRecentReads(read: ReturnType<typeof createBookingReader>) {
  let recent = new Map<string, { at: number; seats: Promise<Seats> }>();
  return {
    read(ids: string[], days: [string, string]): Promise<Seats> {
      const key = `${ids.join(",")}|${days.join(",")}`;
      const now = Date.now();
      const hit = recent.get(key);
      if (hit && now - hit.at <= recentReadMs) return hit.seats;
      if (recent.size > 1000) recent = new Map();
      const seats = read(ids, days);
      recent.set(key, { at: now, seats });
      seats.catch(() => {
        recent.delete(key);
      });
      return seats;
    },
    clear(): void {
      recent.clear();
    },
  };
}

interface Job {
  zone: string;
  urgency: Urgency;
  now: number;
}

async function readOccupancy(
  read: (ids: string[], days: [string, string]) => Promise<Seats>,
  candidates: Contractor[],
  job: Job,
): Promise<Occupancy> {
  const { urgency, now } = job;
  if (!candidates.length) return { ...job, readAt: Date.now(), windowSeats: new Map(), daySeats: new Map() };
  const days: [string, string] = [dayText(now - 2 * day), dayText(now + horizonMs[urgency] + 2 * day)];
  return {
    ...job,
    ...(await read(
      candidates.map((contractor) => contractor.id),
      days,
    )),
  };
}

export function createSeatLedger(db: Db) {
  const claims = createClaims();
  const read = createBookingReader(db);
  const recent = createRecentReads(read);
  return {
    /** ONE indexed read (shared with the reads waiting beside it): the candidates' bookings over the days the
     * urgency's horizon can touch. A recent read of the same will do, unless `fresh` (a retry after a seat was
     * taken meanwhile). */
    read: (candidates: Contractor[], job: Job, fresh = false) =>
      readOccupancy(fresh ? read : (ids, days) => recent.read(ids, days), candidates, job),

    /** Seats were freed or taken here (a cancel, a completion, an assignment): quotes read afresh. */
    changed(): void {
      recent.clear();
    },

    /** The windows some candidate can still take (the quote's `arrival_windows`), in time order. */
    openWindows(occupancy: Occupancy, matches: Match[]): ArrivalWindow[] {
      const open = new Set<ArrivalWindow>();
      for (const { contractor } of matches)
        for (const worked of windowsFor(occupancy, contractor))
          if (!open.has(worked.window) && seatsIn(claims, occupancy, contractor, worked)) open.add(worked.window);
      return matches.length > 1 ? [...open].sort((a, b) => a.start - b.start) : [...open];
    },

    /** The match and seats the booking rule picks (booking-rule.ts: rank order for an emergency, a requested window
     * or a quoted contractor; else the earliest window across the matches, within the NTE first). The seats are
     * claimed until `release`; null when nobody can take the job. */
    book(occupancy: Occupancy, matches: Match[], request: BookRequest = {}): BookedMatch | null {
      const firstSeat = (match: Match, before: number) => {
        for (const worked of windowsFor(occupancy, match.contractor, request.window, before)) {
          const booking = seatsIn(claims, occupancy, match.contractor, worked);
          if (booking) return booking;
        }
        return null;
      };
      const picked = pickBooking(matches, occupancy.urgency, request, firstSeat);
      if (picked) claims.hold(picked.booking);
      return picked;
    },

    /** The booking's write ended (committed or not): its claims linger for reads begun before now. */
    release(booking: Booking | null | undefined): void {
      if (!booking) return;
      claims.release(booking);
    },
  };
}

export type SeatLedger = ReturnType<typeof createSeatLedger>;
