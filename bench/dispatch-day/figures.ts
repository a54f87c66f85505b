// The figures of a run, per urgency, from its timeline: when each order came, when a contractor got it and when
// the field arrived. Double-bookings are counted here from the promises (each booking's ETA, drive and expected
// work, on real instants) and that timeline, never from the ledger's slots, so they check the ledger.
import type { Contractor } from "../../server/services/dispatch/contractors.js";
import { offsetMinutes } from "../../server/services/dispatch/calendar.js";
import { urgencies, type Urgency } from "../../server/services/dispatch/trades.js";
import { deadlineOf, type Outcome, type RunResult } from "./simulate.js";
import { expectedWorkMinutes } from "../../server/services/dispatch/technician-time.js";
import { placeOf, travelMinutes } from "../../server/services/dispatch/travel.js";

const minute = 60_000;

export interface UrgencyFigures {
  urgency: Urgency | "all";
  orders: number;
  /** Shares (0–1): a contractor assigned within the fulfilment deadline, and on site within it. */
  assignedInDeadline: number;
  onSiteInDeadline: number;
  /** Share of arrivals within their booked window; null without windows (the baseline). */
  windowAdherence: number | null;
  p50AssignMinutes: number;
  p95AssignMinutes: number;
  held: number;
  escalated: number;
  neverAssigned: number;
  /** Of the orders booked into a window with an ETA: how many, and the share whose ETA at booking lay inside it. */
  etaBooked: number;
  etaInWindow: number;
  /** Of the jobs worked: how many, and the field's drive minutes to them (total and mean). */
  worked: number;
  driveMinutes: number;
}

/** Nearest-rank percentile; NaN for none. */
function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The ETA at booking against the window booked (the customer's side of the promise), new matcher only. */
function etaFigures(assigned: Outcome[]) {
  const booked = assigned.filter((o) => o.job?.window && o.bookedEta !== undefined);
  const inside = booked.filter((o) => o.bookedEta! >= o.job!.window!.start && o.bookedEta! <= o.job!.window!.end);
  return { etaBooked: booked.length, etaInWindow: booked.length ? inside.length / booked.length : NaN };
}

/** The field's drive to each job worked. */
function driveFigures(assigned: Outcome[]) {
  const worked = assigned.filter((o) => o.job?.onSiteAt !== undefined);
  return { worked: worked.length, driveMinutes: worked.reduce((sum, o) => sum + o.order.travelMinutes, 0) };
}

function figuresOf(urgency: UrgencyFigures["urgency"], outcomes: Outcome[]): UrgencyFigures {
  const deadline = (o: Outcome) => deadlineOf(o.order);
  const assigned = outcomes.filter((o) => o.assignedAt !== undefined);
  const windowed = assigned.filter((o) => o.job?.window && o.job.onSiteAt !== undefined);
  const share = (n: number, of: number) => (of ? n / of : NaN);
  const waits = assigned.map((o) => (o.assignedAt! - o.order.at) / minute);
  return {
    urgency,
    orders: outcomes.length,
    assignedInDeadline: share(assigned.filter((o) => o.assignedAt! <= deadline(o)).length, outcomes.length),
    onSiteInDeadline: share(
      assigned.filter((o) => o.job?.onSiteAt !== undefined && o.job.onSiteAt <= deadline(o)).length,
      outcomes.length,
    ),
    windowAdherence: windowed.length
      ? share(windowed.filter((o) => o.job!.onSiteAt! <= o.job!.window!.end).length, windowed.length)
      : null,
    p50AssignMinutes: percentile(waits, 50),
    p95AssignMinutes: percentile(waits, 95),
    held: outcomes.filter((o) => o.held).length,
    escalated: outcomes.filter((o) => o.escalated).length,
    neverAssigned: outcomes.filter((o) => o.assignedAt === undefined && !o.held).length,
    ...etaFigures(assigned),
    ...driveFigures(assigned),
  };
}

export const urgencyFigures = (outcomes: Outcome[]): UrgencyFigures[] => [
  ...urgencies.map((u) =>
    figuresOf(
      u,
      outcomes.filter((o) => o.order.urgency === u),
    ),
  ),
  figuresOf("all", outcomes),
];

/** The day (YYYY-MM-DD) an instant falls on in `zone`. */
export const localDay = (zone: string, ms: number) =>
  new Date(ms + offsetMinutes(zone, ms) * minute).toISOString().slice(0, 10);

/** The time a contractor is committed to a job: with the ETA it promised at booking, a technician from the drive
 * before that arrival (not before the booking) to the end of the trade's expected work (or the job's completion,
 * which frees the technician), on real instants whatever the zone; else its booked
 * window from the booking (ending early when the job is done), or, without a window, from the assignment until the
 * job is done. Read from the promises, never the ledger's slots. */
function commitment(o: Outcome, contractor: Contractor): [number, number] {
  const job = o.job!;
  if (o.bookedEta !== undefined) {
    const drive = travelMinutes({ contractor }, placeOf(o.order.location)) * minute;
    const planned: [number, number] = [o.bookedEta - drive, o.bookedEta + expectedWorkMinutes(o.order.trade) * minute];
    return [Math.max(planned[0], o.bookedAt ?? o.assignedAt!), Math.min(planned[1], job.completedAt ?? Infinity)];
  }
  if (job.window)
    return [Math.max(job.window.start, o.assignedAt!), Math.min(job.window.end, job.completedAt ?? Infinity)];
  return [o.assignedAt!, job.completedAt ?? Infinity];
}

/** Jobs that took a contractor over `concurrent_jobs` at some moment, and over `jobs_per_day` on a local day (the
 * day of the window's start, or of the assignment, on the contractor's clock). */
export function doubleBookings(outcomes: Outcome[], contractors: Contractor[]) {
  const byId = new Map(contractors.map((c) => [c.id, c]));
  const jobs = new Map<string, Outcome[]>();
  for (const o of outcomes) if (o.job) jobs.set(o.job.contractorId, [...(jobs.get(o.job.contractorId) ?? []), o]);
  let concurrent = 0;
  let daily = 0;
  for (const [id, list] of jobs) {
    const contractor = byId.get(id)!;
    const edges = list
      .map((o) => commitment(o, contractor))
      .filter(([from, to]) => to > from)
      .flatMap(([from, to]) => [
        { at: from, delta: 1 },
        { at: to, delta: -1 },
      ])
      .sort((a, b) => a.at - b.at || a.delta - b.delta); // a job ending as another starts frees its seat first
    let holding = 0;
    for (const edge of edges) {
      holding += edge.delta;
      if (edge.delta > 0 && holding > contractor.capacity.concurrent_jobs) concurrent++;
    }
    const perDay = new Map<string, number>();
    for (const o of list) {
      const day = localDay(contractor.time_zone, o.job!.window?.start ?? o.assignedAt!);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    for (const n of perDay.values()) daily += Math.max(0, n - contractor.capacity.jobs_per_day);
  }
  return { concurrent, daily };
}

export interface RunFigures {
  rows: UrgencyFigures[];
  doubleBookings: { concurrent: number; daily: number };
  reassignments: number;
  nteBreaches: number;
  nteRefusals: number;
  elapsedMs: number;
  quotes?: RunResult["quotes"];
  replans?: number;
}

export const runFigures = (result: RunResult, contractors: Contractor[]): RunFigures => ({
  rows: urgencyFigures(result.outcomes),
  doubleBookings: doubleBookings(result.outcomes, contractors),
  reassignments: result.reassignments,
  nteBreaches: result.nteBreaches,
  nteRefusals: result.nteRefusals,
  elapsedMs: result.elapsedMs,
  quotes: result.quotes,
  replans: result.replans,
});
