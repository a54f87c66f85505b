// The field: each contractor's crew of `concurrent_jobs` technicians working through the jobs it was given. A free
// technician takes the job due first, sets off to arrive at its window's start (waiting at the door when early),
// only to arrive within working hours, and works the job's own duration. Nothing here reads the seat ledger: a crew
// that overran keeps the next customer waiting, so late arrivals happen when they would (BENCHMARKS.md, "Dispatch
// day").
import type { Contractor } from "../../server/services/dispatch/contractors.js";
import { workingIntervals } from "../../server/services/dispatch/calendar.js";
import type { DayOrder } from "./world.js";

const minute = 60_000;

/** One job of the field: its order's facts, who has it and, once worked, what happened when. */
export interface FieldJob {
  order: DayOrder;
  contractorId: string;
  /** The booked window, when the matcher books one. */
  window: { start: number; end: number } | null;
  /** When a technician should leave: window start less the drive, or the assignment. */
  readyAt: number;
  departedAt?: number;
  onSiteAt?: number;
  completedAt?: number;
}

/** A status step the field takes at a minute: the run records it through the services (or, for the baseline,
 * just in the timeline). */
export interface FieldStep {
  job: FieldJob;
  status: "dispatched" | "en_route" | "on_site" | "completed";
}

interface Crew {
  freeAt: number[];
  queue: FieldJob[];
  /** Working intervals [start, end) in time order, over the simulated span. */
  hours: [number, number][];
}

/** The first instant from `at` on inside one of the intervals (time-ordered), or undefined after the last: a
 * binary search. */
export function nextOpening(hours: [number, number][], at: number): number | undefined {
  let [lo, hi] = [0, hours.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (hours[mid][1] <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo < hours.length ? Math.max(at, hours[lo][0]) : undefined;
}

/** Whether `at` lies in one of the intervals. */
const isWithin = (hours: [number, number][], at: number) => nextOpening(hours, at) === at;

/** A contractor's working intervals [start, end) over `span`, in time order. */
export const workingHoursOf = (contractor: Contractor, span: [number, number]): [number, number][] =>
  workingIntervals(contractor, new Date(span[0]), new Date(span[1])).map(({ start, end }) => [
    start.getTime(),
    end.getTime(),
  ]);

/** The field of a pool, over `span` (ms since the epoch: its working hours are laid out for that span once). */
export function createField(contractors: Contractor[], span: [number, number]) {
  const byId = new Map(contractors.map((c) => [c.id, c]));
  const crews = new Map<string, Crew>();
  const busy = new Set<Crew>();
  const agenda = new Map<number, FieldStep[]>();
  const schedule = (at: number, step: FieldStep) => {
    const list = agenda.get(at);
    if (list) list.push(step);
    else agenda.set(at, [step]);
  };
  const crewOf = (id: string) => {
    let crew = crews.get(id);
    if (!crew) {
      const contractor = byId.get(id)!;
      const hours = workingHoursOf(contractor, span);
      crew = { freeAt: Array.from({ length: contractor.capacity.concurrent_jobs }, () => 0), queue: [], hours };
      crews.set(id, crew);
    }
    return crew;
  };

  /** Starts the due job on each free technician of the crew. */
  function startDue(crew: Crew, now: number) {
    for (let tech = 0; tech < crew.freeAt.length && crew.queue.length; tech++) {
      if (crew.freeAt[tech] > now) continue;
      const arrival = (job: FieldJob) => Math.max(now + job.order.travelMinutes * minute, job.window?.start ?? 0);
      const at = crew.queue.findIndex((job) => job.readyAt <= now && isWithin(crew.hours, arrival(job)));
      if (at < 0) return;
      const [job] = crew.queue.splice(at, 1);
      const arrives = arrival(job);
      job.departedAt = now;
      job.onSiteAt = arrives;
      job.completedAt = arrives + job.order.workMinutes * minute;
      crew.freeAt[tech] = job.completedAt;
      schedule(now, { job, status: "dispatched" });
      schedule(now, { job, status: "en_route" });
      schedule(arrives, { job, status: "on_site" });
      schedule(job.completedAt, { job, status: "completed" });
    }
  }

  /** The contractor has a new job: queued in order of when a technician should leave for it. */
  function give(job: FieldJob): void {
    const crew = crewOf(job.contractorId);
    const at = crew.queue.findIndex((queued) => queued.readyAt > job.readyAt);
    crew.queue.splice(at < 0 ? crew.queue.length : at, 0, job);
    busy.add(crew);
  }

  return {
    give,
    /** The dispatch moved the job's window before a technician set off for it: queued again by its new departure. */
    move(job: FieldJob, window: { start: number; end: number }): void {
      if (job.departedAt !== undefined) return;
      const crew = crewOf(job.contractorId);
      crew.queue.splice(crew.queue.indexOf(job), 1);
      job.window = window;
      job.readyAt = window.start - job.order.travelMinutes * minute;
      give(job);
    },
    /** Technicians set off for what is due at `now`; the steps that fall on `now`, in order. */
    tick(now: number): FieldStep[] {
      for (const crew of busy) {
        startDue(crew, now);
        if (!crew.queue.length) busy.delete(crew);
      }
      const steps = agenda.get(now) ?? [];
      agenda.delete(now);
      return steps;
    },
    /** Whether any job is still queued or under way. */
    idle: () => busy.size === 0 && agenda.size === 0,
  };
}
