// Technicians' time: the earliest a technician can arrive in a window, given its busy intervals, the job's travel and
// expected work, on whole UTC slots as technician_slots stores them (docs/decisions.md#technicians-time). Pure.
import { tradeWages } from "../../data/oews-wages.js";
import type { TradeCode } from "./trades.js";

const minute = 60_000;
/** The grain of a technician's timeline (technician_slots.slot_start). */
export const slotMs = 15 * minute;
/** An arrival is promised no later than this before its window's end. */
export const arrivalMarginMs = 15 * minute;
/** An arrival pushed past a technician's other job falls on these steps (10:35, not 10:33:17). */
const arrivalStepMs = 5 * minute;

/** A technician busy from departure to the end of the work, [from, until) in ms, on slot bounds. */
export interface Busy {
  from: number;
  until: number;
}

/** What a job asks of a technician: its drive, its expected work, and the earliest arrival promised (ms). */
export interface JobTime {
  travelMs: number;
  workMs: number;
  earliest: number;
}

export interface Placement {
  arrival: number;
  busy: Busy;
  /** The drive planned before the arrival (ms): the job's travel, which `busy` starts before on a slot bound. */
  driveMs: number;
}

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/** A stored busy interval on the slots it takes: from its slot's start to the end of its last slot. */
export const onSlots = (from: number, until: number): Busy => ({
  from: floorTo(from, slotMs),
  until: ceilTo(until, slotMs),
});

/** Expected minutes on site: the trade's typical billed hours per job (server/data/oews-wages.ts), as quoted. */
export const expectedWorkMinutes = (trade: TradeCode) => Math.round(tradeWages[trade].typicalHours * 60);

/** Whether two busy intervals share an instant ([from, until) each). */
export const overlaps = (a: Busy, b: Busy) => a.from < b.until && b.from < a.until;

/** The busy interval of an arrival: departure (arrival less travel) to the end of the work, on slot bounds. */
export const busyOf = (arrival: number, job: JobTime): Busy => onSlots(arrival - job.travelMs, arrival + job.workMs);

/** The earliest arrival in the window (by arrivalMarginMs before its end, not before `job.earliest`) whose busy
 * interval clashes with none of `busy`; null when there is none. */
export function earliestArrival(
  busy: readonly Busy[],
  window: { start: number; end: number },
  job: JobTime,
): Placement | null {
  const latest = window.end - arrivalMarginMs;
  let arrival = Math.max(window.start, job.earliest); // the response itself when it binds (the ETA's `dispatch`)
  while (arrival <= latest) {
    const interval = busyOf(arrival, job);
    const freeFrom = busy.find((b) => overlaps(b, interval))?.until;
    if (freeFrom === undefined) return { arrival, busy: interval, driveMs: job.travelMs };
    arrival = Math.max(arrival + arrivalStepMs, ceilTo(freeFrom + job.travelMs, arrivalStepMs));
  }
  return null;
}
