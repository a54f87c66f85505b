// What the two runs of one simulated day share (the world, an order's outcome, a run's result), and the baseline:
// the matcher before capacity and windows. The best-ranked contractor of the same pool (rankMatches, the one
// matcher) gets every order the moment it arrives, with createOrder's NTE hold and nothing else: no capacity, no
// window, no re-match, no escalation; the same field (field.ts) works its jobs. It needs no database: it books
// nothing. The new matcher's run is new-run.ts.
import type { Contractor } from "../../server/services/dispatch/contractors.js";
import { fulfilmentDeadlineMinutes } from "../../server/services/dispatch/fulfilment-deadline.js";
import { rankMatches } from "../../server/services/dispatch/matching.js";
import { isOverNte } from "../../server/services/dispatch/nte.js";
import { createField, type FieldJob } from "./field.js";
import type { DayOrder } from "./world.js";

const minute = 60_000;

/** One order of a run: when it came, when (and whether) a contractor got it, and what the field did. */
export interface Outcome {
  order: DayOrder;
  nteCents: number | null;
  assignedAt?: number;
  job?: FieldJob;
  held: boolean;
  escalated: boolean;
  /** The order's status when the run ended, as the database has it (the new matcher's run only). */
  status?: string;
  /** The order's ETA when it was booked, or re-planned last (the new matcher's run only: the baseline promises no
   * time). */
  bookedEta?: number;
  /** When it was booked, or re-planned last: a commitment starts no earlier (the new matcher's run only). */
  bookedAt?: number;
  /** Times the dispatch moved its window (re-plans; the new matcher's run only). */
  moved?: number;
}

/** What the day's quotes offered (the new matcher's run: one quote before each order). */
export interface QuoteFigures {
  quotes: number;
  windows: number;
  /** Windows ending before the quote's own earliest arrival (created_at + estimated_response_minutes). */
  endingBeforeArrival: number;
  /** Quotes whose first window had already started when quoted. */
  leadingUnderWay: number;
  /** The windows offered, by how sure the quote was of each (`confidence`). */
  graded: { high: number; medium: number; low: number };
}

export interface RunResult {
  outcomes: Outcome[];
  reassignments: number;
  /** Steps above an order's NTE without an override: a dispatch at a price over it, or an invoice over it. */
  nteBreaches: number;
  /** Invoices over the NTE the rule refused (the contractor then bills the NTE). */
  nteRefusals: number;
  elapsedMs: number;
  /** The day's quotes, and re-plans (a booked order's window moved by the dispatch, not the customer). */
  quotes?: QuoteFigures;
  replans?: number;
  /** Where the new matcher's run spent its time: calls and ms per service path. */
  calls?: Record<string, { n: number; ms: number }>;
}

export interface World {
  contractors: Contractor[];
  orders: DayOrder[];
  /** Each order's NTE, from its factor and the best price of the pool (null: none). */
  nte: Map<DayOrder, number | null>;
}

/** The span the field lays working hours out for: from the day before the first order to a month after. */
export const spanOf = (world: World): [number, number] => [
  world.orders[0].at - 86_400_000,
  world.orders[0].at + 31 * 86_400_000,
];
/** When the order is due on site: its arrival plus its urgency's fulfilment deadline. */
export const deadlineOf = (order: DayOrder) => order.at + fulfilmentDeadlineMinutes[order.urgency] * minute;
export const lastDeadline = (orders: DayOrder[]) => Math.max(...orders.map(deadlineOf));

/** The order's matches in the pool, best-ranked first (rankMatches over the contractors of its trade and state). */
export const rankedFor = (world: World, order: DayOrder) =>
  rankMatches(
    world.contractors.filter(
      (c) => c.trades.includes(order.trade) && c.service_areas.some((a) => a.state === order.location.state),
    ),
    order,
  );
export const invoice = (quoted: number, order: DayOrder) => Math.round(quoted * order.invoiceFactor);

/** The baseline's decision for one order: its best-ranked contractor, unless the price is over the NTE. */
function baselineOutcome(world: World, order: DayOrder, quoted: Map<FieldJob, number>): Outcome {
  const nteCents = world.nte.get(order) ?? null;
  const best = rankedFor(world, order)[0];
  const held = best !== undefined && isOverNte(nteCents, best.costCents);
  const outcome: Outcome = { order, nteCents, held, escalated: false };
  if (!best || held) return outcome;
  outcome.assignedAt = order.at;
  outcome.job = { order, contractorId: best.contractor.id, window: null, readyAt: order.at };
  quoted.set(outcome.job, best.costCents);
  return outcome;
}

/** The baseline's run: see the module header. Invoices over the NTE are capped at it, as in the new run (where the
 * rule refuses them); its NTE breaches are then counted on its timeline as the new run's are in the database. */
export function runBaseline(world: World): RunResult {
  const started = performance.now();
  const field = createField(world.contractors, spanOf(world));
  const outcomes: Outcome[] = [];
  const quoted = new Map<FieldJob, number>();
  const billed = new Map<FieldJob, number>();
  let next = 0;
  const [, last] = spanOf(world);
  for (let t = world.orders[0].at; t < last && (next < world.orders.length || !field.idle()); t += minute) {
    for (; next < world.orders.length && world.orders[next].at <= t; next++) {
      const outcome = baselineOutcome(world, world.orders[next], quoted);
      if (outcome.job) field.give(outcome.job);
      outcomes.push(outcome);
    }
    for (const { job, status } of field.tick(t))
      if (status === "completed") billed.set(job, invoice(quoted.get(job)!, job.order));
  }
  const over = (o: Outcome, cents: number | undefined) => isOverNte(o.nteCents, cents);
  const refused = outcomes.filter((o) => o.job && over(o, billed.get(o.job)));
  const breaches = outcomes.filter((o) => o.job && over(o, quoted.get(o.job)));
  return {
    outcomes,
    reassignments: 0, // it never re-matches
    nteBreaches: breaches.length,
    nteRefusals: refused.length,
    elapsedMs: performance.now() - started,
  };
}
