// The seat ledger's reads: the candidates' bookings (technicians' busy intervals, day seats) in one named, indexed
// statement, reads arriving together grouped, a recent one reused (docs/decisions.md#seats-and-the-booking-rule).
import type { Db } from "../../db/knex.js";
import type { Environment } from "../shared/tenant.js";
import { horizonMs } from "./arrival-windows.js";
import type { Contractor } from "./contractors.js";
import type { TradeCode, Urgency } from "./trades.js";
import { onSlots, type Busy } from "./technician-time.js";

/** One booking as read: its technician (`seat`) and busy interval (ms), its day seat and the contractor's local day. */
interface BookingRead {
  contractor_id: string;
  seat: number | null;
  busy_from_ms: number;
  busy_until_ms: number;
  local_day: string;
  day_seat: number;
}

/** The job a read is for: its ledger, zone, urgency and instant, its trade (the work's length) and where it is. */
export interface Job {
  environment: Environment;
  zone: string;
  urgency: Urgency;
  now: number;
  trade: TradeCode;
  zip?: string;
  state?: string;
  city?: string;
}

/** The candidates' technicians' busy intervals and taken day seats in one environment, as of one read. */
export interface Occupancy extends Job {
  readAt: number;
  timelines: Map<string, Busy[]>;
  daySeats: Map<string, Set<number>>;
}

const day = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const technicianKey = (contractorId: string, technician: number) => `${contractorId}|${technician}`;
export const dayKey = (contractorId: string, localDay: string) => `${contractorId}|${localDay}`;
const recentReadMs = 250;

const addTo = (map: Map<string, Set<number>>, key: string, seat: number) => {
  const seats = map.get(key);
  if (seats) seats.add(seat);
  else map.set(key, new Set([seat]));
};

function seatMaps(rows: BookingRead[]): Pick<Occupancy, "timelines" | "daySeats"> {
  const maps = { timelines: new Map<string, Busy[]>(), daySeats: new Map<string, Set<number>>() };
  for (const row of rows) {
    addTo(maps.daySeats, dayKey(row.contractor_id, row.local_day), row.day_seat);
    if (row.seat === null) continue;
    const key = technicianKey(row.contractor_id, row.seat);
    const busy = onSlots(row.busy_from_ms, row.busy_until_ms);
    const timeline = maps.timelines.get(key);
    if (timeline) timeline.push(busy);
    else maps.timelines.set(key, [busy]);
  }
  return maps;
}

/** The bookings of some contractors over some local days in one environment: one named, indexed statement. The ids
 * go in as one array (`= any(array(...))`), checked once per booking of the days read; as `in (select ...)` a table
 * without statistics (PGlite, or Postgres without autovacuum) had each booking checked against every id: 55
 * contractors among 6,300 bookings took 96 ms, now 8 ms, and 1.6 -> 0.45 ms once analysed (docs/decisions.md,
 * "Scale"). */
const readBookings = (
  db: Db,
  environment: Environment,
  ids: string[],
  days: [string, string],
): Promise<BookingRead[]> =>
  db
    .raw(
      `select contractor_id, seat, day_seat, local_day::text as local_day,
              extract(epoch from coalesce(busy_from, window_start))::float8 * 1000 as busy_from_ms,
              extract(epoch from coalesce(busy_until, window_end))::float8 * 1000 as busy_until_ms
         from contractor_bookings
        where environment = ? and contractor_id = any(array(select json_array_elements_text(?::json)))
          and local_day between ?::date and ?::date`,
      [environment, JSON.stringify(ids), ...days],
    )
    .options({ name: "dispatch_read_bookings" })
    .then((result: { rows: BookingRead[] }) => result.rows);

interface WaitingRead {
  ids: string[];
  days: [string, string];
  resolve: (seats: Pick<Occupancy, "readAt" | "timelines" | "daySeats">) => void;
  reject: (error: unknown) => void;
}

/** Group read: reads arriving while one is in flight go out together in the next statement (db/group-commit.ts). */
export function createBookingReader(db: Db, environment: Environment) {
  const queue: WaitingRead[] = [];
  let reading = false;
  async function readBatch(batch: WaitingRead[]) {
    const readAt = Date.now();
    const ids = [...new Set(batch.flatMap((waiting) => waiting.ids))];
    const from = batch.map((waiting) => waiting.days[0]).sort()[0];
    const to = batch.map((waiting) => waiting.days[1]).sort()[batch.length - 1];
    try {
      const seats = { readAt, ...seatMaps(await readBookings(db, environment, ids, [from, to])) };
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
    new Promise<Pick<Occupancy, "readAt" | "timelines" | "daySeats">>((resolve, reject) => {
      queue.push({ ids, days, resolve, reject });
      if (reading) return;
      reading = true;
      setImmediate(() => void drain());
    });
}

export type Seats = Pick<Occupancy, "readAt" | "timelines" | "daySeats">;

/** A read of the same contractors and days at most recentReadMs old is reused. */
export function createRecentReads(read: ReturnType<typeof createBookingReader>) {
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

/** The occupancy for a job: the candidates' bookings over its urgency's horizon, two days either side. */
export async function readOccupancy(
  read: (ids: string[], days: [string, string]) => Promise<Seats>,
  candidates: readonly Contractor[],
  job: Job,
): Promise<Occupancy> {
  const { urgency, now } = job;
  if (!candidates.length) return { ...job, readAt: Date.now(), timelines: new Map(), daySeats: new Map() };
  const days: [string, string] = [dayText(now - 2 * day), dayText(now + horizonMs[urgency] + 2 * day)];
  return {
    ...job,
    ...(await read(
      candidates.map((contractor) => contractor.id),
      days,
    )),
  };
}
