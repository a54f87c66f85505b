// The seeded day as the offline optimum reads it (bench/dispatch-day/optimum.py): each order's matches within its
// NTE with the field's drive and work, our planned drive and work, the response; each contractor's crew, working
// intervals and local days. Minutes from the first order. `DISPATCH_DAY_OPTIMUM_INPUT=<file>` writes it in each
// database's run (the last one's stays). Why: docs/decisions.md, "The best achievable day, under each bound".
import { localToInstant } from "../../server/services/dispatch/calendar.js";
import { isOverNte } from "../../server/services/dispatch/nte.js";
import { expectedWorkMinutes } from "../../server/services/dispatch/technician-time.js";
import { placeOf, travelMinutes, travelReady } from "../../server/services/dispatch/travel.js";
import { workingHoursOf } from "./field.js";
import { localDay } from "./figures.js";
import { deadlineOf, lastDeadline, rankedFor, spanOf, type World } from "./simulate.js";

const minute = 60_000;
const day = 86_400_000;

export interface OptimumInput {
  orders: {
    index: number;
    urgency: string;
    at: number;
    deadline: number;
    /** The field's drive and work (what happens), and the work our plan holds a technician for. */
    drive: number;
    work: number;
    plannedWork: number;
    /** The matches within the NTE, best-ranked first: the response for the urgency and our planned drive. */
    matches: { c: string; response: number; geo: number }[];
  }[];
  contractors: {
    id: string;
    name: string;
    k: number;
    perDay: number;
    /** Working intervals [start, end), and each local day's start with its date, in time order. */
    hours: [number, number][];
    dayStarts: [number, string][];
  }[];
}

export async function optimumInput(world: World): Promise<OptimumInput> {
  await travelReady();
  const t0 = world.orders[0].at;
  const last = lastDeadline(world.orders);
  const of = (ms: number) => Math.round((ms - t0) / minute);
  const used = new Set<string>();
  const orders = world.orders.map((order) => {
    const nte = world.nte.get(order) ?? null;
    const matches = rankedFor(world, order).filter((m) => !isOverNte(nte, m.costCents));
    for (const m of matches) used.add(m.contractor.id);
    const place = placeOf(order.location);
    return {
      index: order.index,
      urgency: order.urgency,
      at: of(order.at),
      deadline: of(deadlineOf(order)),
      drive: order.travelMinutes,
      work: order.workMinutes,
      plannedWork: expectedWorkMinutes(order.trade),
      matches: matches.map((m) => ({
        c: m.contractor.id,
        response: m.responseMinutes,
        geo: travelMinutes(m, place),
      })),
    };
  });
  const span = spanOf(world);
  const daysByZone = new Map<string, [number, string][]>();
  /** Each local day's start in `zone` (minutes from the first order) with its date, around the day's deadlines. */
  const dayStartsIn = (zone: string) => {
    let starts = daysByZone.get(zone);
    if (starts) return starts;
    daysByZone.set(zone, (starts = []));
    for (let t = t0 - 2 * day; t < last + 2 * day; t += day) {
      const date = localDay(zone, t);
      starts.push([of(localToInstant(zone, Date.parse(`${date}T00:00:00Z`))), date]);
    }
    return starts;
  };
  const contractors = world.contractors
    .filter((c) => used.has(c.id))
    .map((c) => {
      const hours = workingHoursOf(c, span)
        .filter(([start, end]) => end > t0 - day && start < last)
        .map(([start, end]): [number, number] => [of(start), of(end)]);
      const dayStarts = dayStartsIn(c.time_zone);
      return {
        id: c.id,
        name: c.name,
        k: c.capacity.concurrent_jobs,
        perDay: c.capacity.jobs_per_day,
        hours,
        dayStarts,
      };
    });
  return { orders, contractors };
}
