// Contractors' days as re-planning reads them (each booking with its order's deadline and whether the dispatch may
// move it), and a move written: the booking's seats, the order's window and ETA, order.rescheduled by `dispatch`.
// Making way: a job that no technician can reach by its deadline moves the jobs in its way first, calmer ones or ones
// booked past their own deadline (day-plan.ts; why: docs/decisions.md, "Re-planning").
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import type { Contractor } from "../contractors.js";
import { fulfilmentDeadlineMinutes } from "../fulfilment-deadline.js";
import { workedWindows } from "../arrival-windows.js";
import { isSeatTaken, jobTimeOf, type Booking } from "../bookings.js";
import type { BookingOutcome } from "../booking-rule.js";
import { wayFor, type Move, type PlannedJob } from "../day-plan.js";
import type { Match } from "../matching.js";
import { isOverNte } from "../nte.js";
import { stateTimeZone } from "../state-zones.js";
import { placeOf, travelReady } from "../travel.js";
import { onSlots } from "../technician-time.js";
import { writeMove } from "./reschedule.js";
import { notSetOffStatuses } from "./state.js";
import { now as nowMs, nowDate } from "../../shared/clock.js";

const day = 86_400_000;

/** One booking with what re-planning needs of its order. */
export interface DayRead {
  order_id: string;
  contractor_id: string;
  seat: number | null;
  local_day: string;
  day_seat: number;
  busy_from_ms: number;
  busy_until_ms: number;
  arrival_ms: number;
  status: OrderRow["status"];
  urgency: OrderRow["urgency"];
  created_ms: number;
  window_fixed: boolean;
  trade: OrderRow["trade"];
  state: OrderRow["state"];
  location: OrderRow["location"];
  estimated_response_minutes: number | null;
}

/** The contractors' bookings in one environment from two days before `now` (or still busy), with their orders. */
export function readDays(
  db: Db | Knex.Transaction,
  environment: OrderRow["environment"],
  contractorIds: string[],
  now: number,
): Promise<DayRead[]> {
  const from = new Date(now - 2 * day).toISOString().slice(0, 10);
  return db("contractor_bookings as b")
    .join("orders as o", "o.id", "b.order_id")
    .where("b.environment", environment)
    .whereIn("b.contractor_id", contractorIds)
    .andWhere((q) => void q.where("b.local_day", ">=", from).orWhere("b.busy_until", ">", new Date(now)))
    .select(
      "b.order_id",
      "b.contractor_id",
      "b.seat",
      "b.day_seat",
      db.raw("b.local_day::text as local_day"),
      db.raw("extract(epoch from coalesce(b.busy_from, b.window_start))::float8 * 1000 as busy_from_ms"),
      db.raw("extract(epoch from coalesce(b.busy_until, b.window_end))::float8 * 1000 as busy_until_ms"),
      db.raw("extract(epoch from coalesce(b.arrival_at, b.window_start))::float8 * 1000 as arrival_ms"),
      db.raw("extract(epoch from o.created_at)::float8 * 1000 as created_ms"),
      "o.status",
      "o.urgency",
      "o.window_fixed",
      "o.trade",
      "o.state",
      "o.location",
      "o.estimated_response_minutes",
    );
}

function plannedJob(read: DayRead, contractor: Contractor, now: number): PlannedJob {
  const busy = onSlots(read.busy_from_ms, read.busy_until_ms);
  const responseMinutes = read.estimated_response_minutes ?? contractor.base_response_minutes;
  const job = { now, trade: read.trade, ...placeOf(read.location) };
  return {
    orderId: read.order_id,
    seat: read.seat ?? -1, // a finished job keeps only its day seat
    busy,
    day: read.local_day,
    daySeat: read.day_seat,
    arrival: read.arrival_ms,
    deadline: read.created_ms + fulfilmentDeadlineMinutes[read.urgency] * 60_000,
    // set off is the contractor's report (en_route), not our estimate of its departure: until then a job still to
    // come may move
    movable:
      read.seat !== null && notSetOffStatuses.includes(read.status) && !read.window_fixed && read.arrival_ms > now,
    time: jobTimeOf({ contractor, responseMinutes }, job),
    windows: workedWindows(contractor, stateTimeZone(read.state), now),
  };
}

/** A contractor's day to plan on: its capacity and its bookings. */
export const dayLedger = (contractor: Contractor, reads: DayRead[], now: number) => ({
  concurrent: contractor.capacity.concurrent_jobs,
  perDay: contractor.capacity.jobs_per_day,
  jobs: reads.filter((read) => read.contractor_id === contractor.id).map((read) => plannedJob(read, contractor, now)),
});

const bookingOf = (row: Pick<OrderRow, "environment" | "contractor_id">, move: Move): Booking => ({
  environment: row.environment,
  contractorId: row.contractor_id!,
  window: move.worked.window,
  seat: move.seat,
  day: move.worked.day,
  daySeat: move.daySeat,
  arrival: move.placement.arrival,
  busy: move.placement.busy,
  driveMinutes: Math.round(move.placement.driveMs / 60_000),
});

/** Locks the yielding order (skipped when another instance holds it): the row, when it is still as read. */
async function lockYielding(trx: Knex.Transaction, read: DayRead): Promise<OrderRow | null> {
  const row: OrderRow | undefined = await trx("orders").where({ id: read.order_id }).forUpdate().skipLocked().first();
  const unchanged = row?.status === read.status && row.contractor_id === read.contractor_id && !row.window_fixed;
  return unchanged ? row : null;
}

/** What making way asks of a job not yet booked: its order's job and deadline (ms), and its NTE. */
export type WayJob = Pick<OrderRow, "environment" | "trade" | "state" | "location" | "urgency" | "nte_cents"> & {
  deadline: number;
};

/** Whether a booking outcome leaves a job of `matches` without an arrival by its deadline (a hold is the NTE's). */
export const isLate = (outcome: BookingOutcome, deadline: number) =>
  (outcome.kind === "none" && outcome.match !== undefined) ||
  (outcome.kind === "assign" && outcome.plan.booking.arrival > deadline);

/** Makes way for the job at the first match (within its NTE; those that take no emergencies first) where moving the
 * jobs in its way lets it arrive by its deadline: true when they moved, so that a fresh read books the job. */
export async function makeWay(db: Db, base: string, job: WayJob, matches: Match[]): Promise<boolean> {
  const within = matches.filter((match) => !isOverNte(job.nte_cents, match.costCents));
  const ordered = [
    ...within.filter((m) => !m.contractor.emergency_capable),
    ...within.filter((m) => m.contractor.emergency_capable),
  ];
  if (!ordered.length) return false;
  await travelReady();
  const now = nowMs();
  const reads = await readDays(
    db,
    job.environment,
    ordered.map((match) => match.contractor.id),
    now,
  );
  const zone = stateTimeZone(job.state);
  const place = { now, trade: job.trade, ...placeOf(job.location) };
  for (const match of ordered) {
    const ledger = dayLedger(match.contractor, reads, now);
    const windows = workedWindows(match.contractor, zone, now);
    const yielded = wayFor(ledger, { time: jobTimeOf(match, place), windows, deadline: job.deadline }, now);
    if (!yielded.length) continue;
    try {
      if (await db.transaction((trx) => writePlan(trx, reads, { yielded }, { now: nowDate(), base }))) return true;
    } catch (error) {
      if (!isSeatTaken(error)) throw error;
    }
  }
  return false;
}

/** Writes a plan's moves in the caller's transaction: the yielding orders locked first (false, nothing moved, when
 * another instance holds one or it is no longer as read), their bookings deleted so their slots are free, then the
 * late order (locked by the caller) and each yielding one moved and announced, in that order. */
export async function writePlan(
  trx: Knex.Transaction,
  reads: DayRead[],
  plan: { late?: { row: OrderRow; move: Move }; yielded: Move[] },
  change: { now: Date; base: string },
): Promise<boolean> {
  const moves = plan.late ? [plan.late] : [];
  for (const move of plan.yielded) {
    const row = await lockYielding(
      trx,
      reads.find((read) => read.order_id === move.orderId)!,
    );
    if (!row) return false;
    moves.push({ row, move });
  }
  const yielding = plan.yielded.map((move) => move.orderId);
  if (yielding.length) await trx("contractor_bookings").whereIn("order_id", yielding).delete();
  for (const { row, move } of moves) await writeMove(trx, row, bookingOf(row, move), { by: "dispatch", ...change });
  return true;
}
