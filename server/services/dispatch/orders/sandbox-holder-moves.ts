// The moves of a sandbox scenario made by the contractor holding the job (sandbox-scenarios.ts chooses when): it
// reschedules the job to its next bookable window (`contractor_reschedules`), or sets off with an estimate after
// the window's end (`late_arrival`). Each is the operation a real contractor's key calls (rescheduleJob,
// updateJobStatus), as the simulated contractor (sandbox-contractor.ts), so the events, audit records, seats and
// 409s are live's.
//
// Why "next bookable window" is tried in time order rather than read from the seat tables first: rescheduleJob
// reads the seats under the order's row lock and answers 409 window_unavailable for a full one, the same check a
// contractor's key meets; the sandbox takes the first window that answer allows (a few at most: the pool's
// contractors have free seats two hours later on a fresh sandbox). A holder with no later window it works and can
// book within the urgency keeps its window, as a live contractor would have to: the happy path's step follows.
//
// Why the late estimate is 30 minutes after the window's end (after the order's ETA without a window), and never
// before 30 minutes from now: it must be late against the promise the customer holds, and still a time a
// contractor could give (updateJobStatus refuses one more than an hour past). Live flags nothing for a late
// estimate, so neither does the sandbox: the integrator sees the late time in order.eta_updated, as live shows it.
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { DomainError } from "../../errors.js";
import { now as nowMs } from "../../shared/clock.js";
import { isBookable, withOffset, workedWindows } from "../arrival-windows.js";
import { rescheduleJob } from "../jobs/reschedule.js";
import type { Answering } from "../offers/answer.js";
import { stateTimeZone } from "../state-zones.js";
import { holderOf, reportAsHolder, simulatedContractor } from "./sandbox-contractor.js";

/** How many later windows the holder tries before keeping its own. */
const windowTries = 6;
const lateByMs = 30 * 60_000;

const isFull = (error: unknown) => error instanceof DomainError && error.code === "window_unavailable";

/** The holder moves the job once, to its next bookable window; false when it has none (or already moved it). */
export async function rescheduleAsHolder(deps: Answering, row: OrderRow, base: string): Promise<boolean> {
  const moved = await deps.db("order_events").where({ order_id: row.id, type: "order.rescheduled" }).first("id");
  const holder = await holderOf(deps, row.id);
  const contractor = holder && (await deps.contractors.get(holder));
  if (moved || !contractor || !row.arrival_window_start) return false;
  const zone = stateTimeZone(row.state);
  const now = nowMs();
  const booked = new Date(row.arrival_window_start).getTime();
  const later = workedWindows(contractor, zone, now)
    .filter(({ window }) => window.start > booked && isBookable(window, row.urgency, now))
    .slice(0, windowTries);
  for (const { window } of later) {
    const arrival_window = { start: withOffset(zone, window.start), end: withOffset(zone, window.end) };
    const request = { id: row.id, input: { arrival_window }, base };
    try {
      await rescheduleJob(deps, simulatedContractor(contractor.id), request).finally(() => {
        deps.seats.changed();
        deps.eventsWritten();
      });
      return true;
    } catch (error) {
      if (!isFull(error)) throw error;
    }
  }
  return false;
}

/** The latest time the customer was promised: the window's end, else the order's ETA, else now. */
function promisedBy(row: OrderRow, now: number): number {
  if (row.arrival_window_end) return new Date(row.arrival_window_end).getTime();
  if (row.eta_at) return new Date(row.eta_at).getTime();
  return now;
}

/** The holder sets off late: en_route with an estimate after the promised time; false when nobody holds the job. */
export function setOffLate(deps: Answering, row: OrderRow, base: string): Promise<boolean> {
  const now = nowMs();
  const late = Math.max(promisedBy(row, now), now) + lateByMs;
  const estimated_arrival_at = new Date(late).toISOString();
  const note = "Sandbox: en route, running late.";
  return reportAsHolder(deps, row, { status: "en_route", estimated_arrival_at, note }, base);
}
