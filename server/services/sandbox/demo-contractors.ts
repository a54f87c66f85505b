// Demo contractor pool: every trade in eight large states, two contractors each; deliberately none in AK.
import type { ContractorInput, ContractorService } from "../dispatch/contractors.js";
import { tradeCodes } from "../dispatch/trades.js";
import { tradeWages } from "../../data/oews-wages.js";

const states: Record<string, { cities: string[]; zip_prefixes: string[] }> = {
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
        },
        {
          name: `${state} Statewide ${tradeWages[trade].name}`,
          trades: [trade],
          service_areas: [{ state }],
          hourly_rate_cents: Math.round(wage * 300 + t * 120),
          base_response_minutes: 240 + ((s * 3 + t) % 5) * 60,
          emergency_capable: false,
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
