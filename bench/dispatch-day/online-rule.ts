// Issue 42's reference, "a technician who becomes free takes the most urgent order it can still reach": each minute
// the open orders, most urgent first, take the free technician arriving earliest by their deadline (within NTE,
// working hours, day seats), busy until the job is done. In memory, on the field's own drive and job length, no
// window. Two readings: the drive alone bounds an arrival (the issue's), or the contractor's response as well (our
// ETA's bound). Why: docs/decisions.md, "The online rule, beside ours".
import type { Contractor } from "../../server/services/dispatch/contractors.js";
import { localToInstant } from "../../server/services/dispatch/calendar.js";
import type { Match } from "../../server/services/dispatch/matching.js";
import { isOverNte } from "../../server/services/dispatch/nte.js";
import { urgencies } from "../../server/services/dispatch/trades.js";
import { nextOpening, workingHoursOf } from "./field.js";
import { localDay } from "./figures.js";
import {
  deadlineOf,
  invoice,
  lastDeadline,
  rankedFor,
  spanOf,
  type Outcome,
  type RunResult,
  type World,
} from "./simulate.js";

const minute = 60_000;

export interface OnlineReading {
  /** An arrival no sooner than the match's response minutes after the order is taken (our ETA's bound). */
  responseBound: boolean;
}

interface Open {
  outcome: Outcome;
  matches: Match[];
  deadline: number;
  /** No minute before this can give it a technician (Infinity: none ever will by its deadline). */
  wakeAt: number;
}

/** The crews of a pool: when each technician is free, and the jobs taken per contractor's local day. */
function crewsOf(world: World) {
  const span = spanOf(world);
  const free = new Map(world.contractors.map((c) => [c.id, Array<number>(c.capacity.concurrent_jobs).fill(0)]));
  const hours = new Map<string, [number, number][]>();
  const hoursOf = (c: Contractor) => {
    let list = hours.get(c.id);
    if (!list) hours.set(c.id, (list = workingHoursOf(c, span)));
    return list;
  };
  const taken = new Map<string, number>();
  return { free, hoursOf, taken };
}

/** The rule's run over the world's day; orders nobody reaches by their deadline are never taken. */
export function runOnlineRule(world: World, reading: OnlineReading): RunResult {
  const started = performance.now();
  const { free, hoursOf, taken } = crewsOf(world);
  const rank = new Map(urgencies.map((u, i) => [u, i]));
  const outcomes: Outcome[] = [];
  const quoted = new Map<Outcome, number>();
  let open: Open[] = [];
  let next = 0;
  const last = lastDeadline(world.orders);
  for (let t = world.orders[0].at; t <= last; t += minute) {
    for (; next < world.orders.length && world.orders[next].at <= t; next++) {
      const order = world.orders[next];
      const nteCents = world.nte.get(order) ?? null;
      const ranked = rankedFor(world, order);
      const matches = ranked.filter((m) => !isOverNte(nteCents, m.costCents));
      const outcome: Outcome = { order, nteCents, held: ranked.length > 0 && !matches.length, escalated: false };
      outcomes.push(outcome);
      if (matches.length) open.push({ outcome, matches, deadline: deadlineOf(order), wakeAt: t });
    }
    open.sort(
      (a, b) =>
        rank.get(a.outcome.order.urgency)! - rank.get(b.outcome.order.urgency)! ||
        a.deadline - b.deadline ||
        a.outcome.order.index - b.outcome.order.index,
    );
    open = open.filter((job) => job.wakeAt > t || !take(job, t)).filter((job) => job.wakeAt <= job.deadline);
  }

  /** Gives the job the free technician arriving earliest by its deadline (rank order breaking ties), if any; else
   * sets the first minute one could (a technician's earliest end, the next working hours, the next day), skipping
   * it until then: taking jobs only makes technicians busier, so the figures are as if it were tried every minute. */
  function take(job: Open, t: number): boolean {
    const { outcome, matches, deadline } = job;
    const { order } = outcome;
    let best: { match: Match; tech: number; arrival: number; day: string } | undefined;
    let wakeAt = Infinity;
    const live: Match[] = []; // the matches that may still arrive by the deadline: the others never will
    for (const match of matches) {
      const delay = Math.max(order.travelMinutes, reading.responseBound ? match.responseMinutes : 0) * minute;
      const technicians = free.get(match.contractor.id)!;
      const tech = technicians.findIndex((at) => at <= t);
      const arrival = t + delay;
      if (arrival > deadline) continue;
      if (best && arrival >= best.arrival) {
        live.push(match);
        continue;
      }
      const opening = nextOpening(hoursOf(match.contractor), Math.max(t, Math.min(...technicians)) + delay);
      if (opening === undefined || opening > deadline) continue;
      live.push(match);
      if (tech < 0 || opening > arrival) {
        wakeAt = Math.min(wakeAt, opening - delay);
        continue;
      }
      const zone = match.contractor.time_zone;
      const date = localDay(zone, t);
      const day = `${match.contractor.id}:${date}`;
      if ((taken.get(day) ?? 0) >= match.contractor.capacity.jobs_per_day) {
        wakeAt = Math.min(wakeAt, localToInstant(zone, Date.parse(`${date}T00:00:00Z`) + 86_400_000)); // its next day
        continue;
      }
      best = { match, tech, arrival, day };
    }
    job.wakeAt = wakeAt;
    job.matches = live;
    if (!best) return false;
    const completedAt = best.arrival + order.workMinutes * minute;
    free.get(best.match.contractor.id)![best.tech] = completedAt;
    taken.set(best.day, (taken.get(best.day) ?? 0) + 1);
    outcome.assignedAt = t;
    const field = { order, contractorId: best.match.contractor.id, window: null, readyAt: t };
    outcome.job = { ...field, departedAt: t, onSiteAt: best.arrival, completedAt };
    quoted.set(outcome, best.match.costCents);
    return true;
  }

  const over = (o: Outcome, cents: number) => isOverNte(o.nteCents, cents);
  const worked = outcomes.filter((o) => o.job);
  return {
    outcomes,
    reassignments: 0, // it never re-matches
    nteBreaches: worked.filter((o) => over(o, quoted.get(o)!)).length,
    nteRefusals: worked.filter((o) => over(o, invoice(quoted.get(o)!, o.order))).length,
    elapsedMs: performance.now() - started,
  };
}
