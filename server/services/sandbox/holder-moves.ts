// A scenario's moves by the contractor holding the job: reschedule to its next bookable window, or set off late;
// each through the contractor's own operation (rescheduleJob, updateJobStatus).
import type { OrderRow } from "../../db/tables/dispatch.js";
import { DomainError } from "../errors.js";
import { now as nowMs } from "../shared/clock.js";
import { isBookable, withOffset, workedWindows } from "../dispatch/arrival-windows.js";
import { rescheduleJob } from "../dispatch/jobs/reschedule.js";
import type { Answering } from "../dispatch/offers/answer.js";
import { stateTimeZone } from "../dispatch/state-zones.js";
import { holderOf, reportAsHolder, simulatedContractor } from "./contractor.js";

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
