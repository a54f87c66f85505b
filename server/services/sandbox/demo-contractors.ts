// Demo contractor pool: every trade in eight large states, two contractors each; deliberately none in AK.
//
// Availability, in each contractor's state's zone (state-zones.ts; all eight states lie in one zone for most of
// their people), shaped on how US trade shops run:
// - The metro shops of the trades with true emergencies at any hour (plumbing: burst pipes; electrical: outages;
//   hvac: no heat in winter; locksmith: lock-outs) are 24/7 emergency outfits with an on-call rotation: always
//   working, 4–6 jobs at once and 40–48 a day (several vans in shifts round the clock: a call lasts a couple of
//   hours, so 4–6 vans over 24 hours take some 50–70; the figure keeps room for drive time).
// - The other metro shops (carpentry, roofing, painting, appliance repair) take emergencies in working hours only:
//   weekdays 7–18 and Saturday mornings 8–13, 2–4 jobs at once, 6–9 a day.
// - The statewide contractors are small crews: weekdays 8–17 or 7–18, a third of them also Saturday 8–12, 1–3 jobs
//   at once and 4–7 a day (long drives between jobs).
// So nights and Sundays leave only the 24/7 outfits, as in a real market, and the per-day figures stay at or above
// the concurrent ones (a crew finishes a job before the day ends).
import type { ContractorInput, ContractorService } from "../dispatch/contractors.js";
import { stateTimeZone } from "../dispatch/state-zones.js";
import { tradeCodes, type TradeCode } from "../dispatch/trades.js";
import { alwaysWorking, weekdayHours } from "../dispatch/working-hours.js";
import { tradeWages } from "../../data/oews-wages.js";

type Availability = Required<Pick<ContractorInput, "working_hours" | "capacity">>;

const emergencyTrades: readonly TradeCode[] = ["plumbing", "electrical", "hvac", "locksmith"];

/** The metro shop's hours and capacity (s, t: the state's and trade's positions, varying the figures). */
function metroAvailability(trade: TradeCode, s: number, t: number): Availability {
  if (emergencyTrades.includes(trade))
    return {
      working_hours: alwaysWorking,
      capacity: { concurrent_jobs: 4 + ((s + t) % 3), jobs_per_day: 40 + ((s + 2 * t) % 3) * 4 },
    };
  return {
    working_hours: weekdayHours("07:00", "18:00", ["08:00", "13:00"]),
    capacity: { concurrent_jobs: 2 + ((s + t) % 3), jobs_per_day: 6 + ((s * 3 + t) % 4) },
  };
}

/** The statewide crew's hours and capacity. */
function statewideAvailability(s: number, t: number): Availability {
  const [start, end] = (s + t) % 2 ? ["07:00", "18:00"] : ["08:00", "17:00"];
  return {
    working_hours: weekdayHours(start, end, (s + 2 * t) % 3 === 0 ? ["08:00", "12:00"] : undefined),
    capacity: { concurrent_jobs: 1 + ((s + t) % 3), jobs_per_day: 4 + ((s + 2 * t) % 4) },
  };
}

/** The demo states, with the cities and zip prefixes their metro shops serve. */
export const states: Record<string, { cities: string[]; zip_prefixes: string[] }> = {
  CA: {
    cities: ["Los Angeles", "San Francisco", "San Diego", "Sacramento"],
    zip_prefixes: ["900", "941", "921", "958"],
  },
  TX: { cities: ["Austin", "Houston", "Dallas", "San Antonio"], zip_prefixes: ["787", "770", "752", "782"] },
  FL: { cities: ["Miami", "Orlando", "Tampa", "Jacksonville"], zip_prefixes: ["331", "328", "336", "322"] },
  NY: { cities: ["New York", "Buffalo", "Rochester", "Albany"], zip_prefixes: ["100", "142", "146", "122"] },
  IL: { cities: ["Chicago", "Springfield", "Naperville"], zip_prefixes: ["606", "627", "605"] },
  PA: { cities: ["Philadelphia", "Pittsburgh", "Harrisburg"], zip_prefixes: ["191", "152", "171"] },
  OH: { cities: ["Columbus", "Cleveland", "Cincinnati"], zip_prefixes: ["432", "441", "452"] },
  GA: { cities: ["Atlanta", "Savannah", "Augusta"], zip_prefixes: ["303", "314", "309"] },
};

/** The demo pool, deterministic so tests and docs can rely on it. */
export function demoContractors(): ContractorInput[] {
  return Object.entries(states).flatMap(([state, area], s) =>
    tradeCodes.flatMap((trade, t) => {
      const wage = tradeWages[trade].median;
      const metro = { state, cities: area.cities.slice(0, 2), zip_prefixes: area.zip_prefixes.slice(0, 2) };
      return [
        {
          name: `${area.cities[0]} ${tradeWages[trade].name} Pros`,
          trades: [trade],
          service_areas: [metro],
          hourly_rate_cents: Math.round(wage * 340 + s * 150),
          base_response_minutes: 90 + ((s + t) % 4) * 30,
          emergency_capable: true,
          time_zone: stateTimeZone(state),
          ...metroAvailability(trade, s, t),
        },
        {
          name: `${state} Statewide ${tradeWages[trade].name}`,
          trades: [trade],
          service_areas: [{ state }],
          hourly_rate_cents: Math.round(wage * 300 + t * 120),
          base_response_minutes: 240 + ((s * 3 + t) % 5) * 60,
          emergency_capable: false,
          time_zone: stateTimeZone(state),
          ...statewideAvailability(s, t),
        },
      ];
    }),
  );
}

/** Seeds the demo pool into an empty contractor table; returns how many were added. */
export async function seedDemoContractors(contractors: ContractorService): Promise<number> {
  const existing = await contractors.list({ limit: 1 });
  if (existing.items.length) return 0;
  const pool = demoContractors();
  await contractors.createMany(pool);
  return pool.length;
}

/**
 * The demo pool as configured for this start. A database restored from the build's snapshot already holds it (so an
 * in-memory server starts seeded without an insert); a server started without the pool then removes it, before
 * serving, while the snapshot's contractor table holds nothing else.
 */
export async function settleDemoPool(
  contractors: ContractorService,
  start: { seedDemo: boolean; fromSnapshot: boolean },
): Promise<void> {
  if (start.seedDemo) await seedDemoContractors(contractors);
  else if (start.fromSnapshot) await contractors.removeAll();
}
