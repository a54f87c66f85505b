// Demo contractor pool: every trade in eight large states, two contractors each (none in AK); the four emergency
// trades have two round-the-clock contractors per state, so a job can be re-offered at any hour.
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

/** The statewide crew's hours (on call around the clock in an emergency trade) and capacity. */
function statewideAvailability(trade: TradeCode, s: number, t: number): Availability {
  const [start, end] = (s + t) % 2 ? ["07:00", "18:00"] : ["08:00", "17:00"];
  const capacity = { concurrent_jobs: 1 + ((s + t) % 3), jobs_per_day: 4 + ((s + 2 * t) % 4) };
  if (emergencyTrades.includes(trade)) return { working_hours: alwaysWorking, capacity };
  return { working_hours: weekdayHours(start, end, (s + 2 * t) % 3 === 0 ? ["08:00", "12:00"] : undefined), capacity };
}

/**
 * The demo states, with the cities and zip prefixes their metro shops serve, and the bases (real ZIPs) of the metro
 * shop (downtown in its first city, inside its first prefix) and of the statewide crew (a city near the state's middle).
 */
export const states: Record<string, { cities: string[]; zip_prefixes: string[]; bases: [string, string] }> = {
  CA: {
    cities: ["Los Angeles", "San Francisco", "San Diego", "Sacramento"],
    zip_prefixes: ["900", "941", "921", "958"],
    bases: ["90012", "93721"], // Los Angeles (Civic Center), Fresno
  },
  TX: {
    cities: ["Austin", "Houston", "Dallas", "San Antonio"],
    zip_prefixes: ["787", "770", "752", "782"],
    bases: ["78701", "76701"], // Austin (downtown), Waco
  },
  FL: {
    cities: ["Miami", "Orlando", "Tampa", "Jacksonville"],
    zip_prefixes: ["331", "328", "336", "322"],
    bases: ["33130", "32801"], // Miami (Brickell), Orlando
  },
  NY: {
    cities: ["New York", "Buffalo", "Rochester", "Albany"],
    zip_prefixes: ["100", "142", "146", "122"],
    bases: ["10001", "13202"], // New York (Chelsea), Syracuse
  },
  IL: {
    cities: ["Chicago", "Springfield", "Naperville"],
    zip_prefixes: ["606", "627", "605"],
    bases: ["60601", "62701"], // Chicago (Loop), Springfield
  },
  PA: {
    cities: ["Philadelphia", "Pittsburgh", "Harrisburg"],
    zip_prefixes: ["191", "152", "171"],
    bases: ["19103", "17101"], // Philadelphia (Center City), Harrisburg
  },
  OH: {
    cities: ["Columbus", "Cleveland", "Cincinnati"],
    zip_prefixes: ["432", "441", "452"],
    bases: ["43215", "44902"], // Columbus (downtown), Mansfield
  },
  GA: {
    cities: ["Atlanta", "Savannah", "Augusta"],
    zip_prefixes: ["303", "314", "309"],
    bases: ["30303", "31201"], // Atlanta (downtown), Macon
  },
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
          base_zip: area.bases[0],
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
          base_zip: area.bases[1],
          ...statewideAvailability(trade, s, t),
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

/** The demo pool as configured: kept from the build's snapshot, or removed before serving when not wanted. */
export async function settleDemoPool(
  contractors: ContractorService,
  start: { seedDemo: boolean; fromSnapshot: boolean },
): Promise<void> {
  if (start.seedDemo) await seedDemoContractors(contractors);
  else if (start.fromSnapshot) await contractors.removeAll();
}
