// The simulated day's world, from one seed: a contractor pool across the demo states and every trade, with the
// weekly hours and capacities of real shops, and a day of orders on the arrival curve of a field-service desk, each
// with the field facts the simulation needs later (travel, how long the job takes, how far the invoice strays).
// Everything is drawn here, up front, so the new matcher and the baseline replay exactly the same day.
import type { ContractorInput } from "../../server/services/dispatch/contractors.js";
import { offsetMinutes } from "../../server/services/dispatch/calendar.js";
import { stateTimeZone } from "../../server/services/dispatch/state-zones.js";
import { tradeCodes, type TradeCode, type Urgency, type UsState } from "../../server/services/dispatch/trades.js";
import { alwaysWorking, weekdayHours } from "../../server/services/dispatch/working-hours.js";
import { states as demoStates } from "../../server/services/sandbox/demo-contractors.js";
import { tradeWages } from "../../server/data/oews-wages.js";

/** mulberry32: a small seeded generator, the same stream on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const between = (rand: Random, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(rand: Random, items: readonly T[]): T => items[Math.floor(rand() * items.length)];
const gaussian = (rand: Random) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
function weighted<T extends string>(rand: Random, weights: Readonly<Record<T, number>>): T {
  const entries = Object.entries(weights) as [T, number][];
  let r = rand() * entries.reduce((sum, [, w]) => sum + w, 0);
  for (const [key, w] of entries) if ((r -= w) < 0) return key;
  return entries[entries.length - 1][0];
}

/** Where the day happens: some of the demo states and trades (all of them by default; a test narrows them to
 * make the pool's capacity bind with few orders). */
export interface Scope {
  states: readonly UsState[];
  trades: readonly TradeCode[];
}
export const everywhere: Scope = { states: Object.keys(demoStates) as UsState[], trades: tradeCodes };
/** Trades with true emergencies at any hour: the ones 24/7 outfits run in. */
const roundTheClockTrades: readonly TradeCode[] = ["plumbing", "electrical", "hvac", "locksmith"];
/** How often each trade is called on a weekday (share of a desk's orders). */
const tradeMix: Readonly<Record<TradeCode, number>> = {
  plumbing: 22,
  electrical: 15,
  hvac: 20,
  appliance_repair: 12,
  locksmith: 8,
  carpentry: 9,
  roofing: 7,
  painting: 7,
};
const mixOf = (scope: Scope) =>
  Object.fromEntries(scope.trades.map((trade) => [trade, tradeMix[trade]])) as Record<TradeCode, number>;
export const urgencyMix: Readonly<Record<Urgency, number>> = { emergency: 10, urgent: 25, routine: 45, scheduled: 20 };

/** One contractor: a 24/7 emergency outfit (about one in five of the emergency trades), a weekday shop (8–18 or
 * 7–17, some also Saturday mornings) or a small statewide crew; 1–4 jobs at once, 4–12 a day. */
function contractorOf(rand: Random, i: number, scope: Scope): ContractorInput {
  const state = pick(rand, scope.states);
  const area = demoStates[state];
  const trade = weighted(rand, mixOf(scope));
  const outfit = roundTheClockTrades.includes(trade) && rand() < 0.2;
  const statewide = !outfit && rand() < 0.35;
  const concurrent = outfit ? between(rand, 2, 4) : between(rand, 1, statewide ? 2 : 4);
  const perDay = outfit ? between(rand, 8, 12) : Math.max(concurrent + 2, between(rand, 4, 10));
  const cities = area.cities.filter(() => rand() < 0.6);
  const hours = outfit
    ? alwaysWorking
    : rand() < 0.5
      ? weekdayHours("08:00", "18:00", rand() < 0.3 ? ["08:00", "12:00"] : undefined)
      : weekdayHours("07:00", "17:00", rand() < 0.3 ? ["08:00", "13:00"] : undefined);
  return {
    name: `Day ${i} ${area.cities[0]} ${tradeWages[trade].name}`,
    trades:
      rand() < 0.12
        ? [
            trade,
            pick(
              rand,
              scope.trades.filter((t) => t !== trade),
            ),
          ]
        : [trade],
    service_areas: [statewide || !cities.length ? { state } : { state, cities, zip_prefixes: area.zip_prefixes }],
    hourly_rate_cents: Math.round(tradeWages[trade].median * between(rand, 280, 380)),
    base_response_minutes: outfit ? between(rand, 30, 90) : between(rand, 90, 360),
    emergency_capable: outfit || (!statewide && rand() < 0.4),
    time_zone: stateTimeZone(state),
    working_hours: hours,
    capacity: { concurrent_jobs: concurrent, jobs_per_day: perDay },
  };
}

export const seedContractors = (rand: Random, n: number, scope = everywhere): ContractorInput[] =>
  Array.from({ length: n }, (_, i) => contractorOf(rand, i, scope));

/** One order of the day, with what the field will do with it. */
export interface DayOrder {
  index: number;
  /** Arrival, ms since the epoch, on a whole minute. */
  at: number;
  trade: TradeCode;
  urgency: Urgency;
  location: { state: UsState; city: string; zip: string; address: string };
  /** Whether the customer sets a not-to-exceed, and where it lies against the best price (× factor). */
  nteFactor: number | null;
  travelMinutes: number;
  workMinutes: number;
  /** The invoice against the quoted price. */
  invoiceFactor: number;
}

const minute = 60_000;
/** Where a customer's NTE lies against the pool's best price: below it (held), just above (an invoice that strays
 * upwards meets the NTE rule) or comfortably above; drawn for three in ten orders. */
const nteFactors = [0.85, 0.85, 0.85, 1.05, 1.05, 1.05, 1.3, 1.3, 1.3, 1.3];
/** Hours a job takes, as a share of the trade's billed typical hours: a lognormal around it (σ 0.45). */
const workMinutesOf = (rand: Random, trade: TradeCode) =>
  Math.max(15, Math.round(tradeWages[trade].typicalHours * 45 * Math.exp(0.45 * gaussian(rand))));

/** Local minute of the day an order comes in: a morning peak near 10:00 and an early-afternoon one near 14:00,
 * 06:00–22:00; emergencies also come at night (two in five at any hour). */
function arrivalMinute(rand: Random, urgency: Urgency): number {
  if (urgency === "emergency" && rand() < 0.4) return between(rand, 0, 1439);
  const peak = rand() < 0.55 ? 10 * 60 : 14 * 60;
  return Math.min(22 * 60, Math.max(6 * 60, Math.round(peak + 90 * gaussian(rand))));
}

/** `n` orders over `day` (YYYY-MM-DD) in each order's own zone, in arrival order. */
export function dayOrders(rand: Random, n: number, day: string, scope = everywhere): DayOrder[] {
  const noon = Date.parse(`${day}T12:00:00Z`);
  const orders = Array.from({ length: n }, (_, index): DayOrder => {
    const urgency = weighted(rand, urgencyMix);
    const state = pick(rand, scope.states);
    const area = demoStates[state];
    const c = Math.floor(rand() * area.cities.length);
    const zone = stateTimeZone(state);
    const midnight = Date.parse(`${day}T00:00:00Z`) - offsetMinutes(zone, noon) * minute;
    const trade = weighted(rand, mixOf(scope));
    return {
      index,
      at: midnight + arrivalMinute(rand, urgency) * minute,
      trade,
      urgency,
      location: {
        state,
        city: area.cities[c],
        zip: `${area.zip_prefixes[c] ?? area.zip_prefixes[0]}${String(between(rand, 1, 99)).padStart(2, "0")}`,
        address: `${between(rand, 1, 9999)} Main St`,
      },
      nteFactor: rand() < 0.3 ? pick(rand, nteFactors) : null,
      travelMinutes: between(rand, 15, 45),
      workMinutes: workMinutesOf(rand, trade),
      invoiceFactor: 0.9 + 0.25 * rand(),
    };
  });
  return orders.sort((a, b) => a.at - b.at || a.index - b.index);
}
