// Picks the best contractor for a job: finest coverage (zip, city, state), then fastest response, then price.
import type { Contractor } from "./contractors.js";
import { tradeWages } from "../../data/oews-wages.js";
import { jobCents, pricingModel } from "./pricing.js";
import type { TradeCode, Urgency } from "./trades.js";

export type Coverage = "zip" | "city" | "state" | "none";
export interface JobLocation {
  state: string;
  zip?: string;
  city?: string;
}
export interface Match {
  contractor: Contractor;
  coverage: Exclude<Coverage, "none">;
  responseMinutes: number;
  costCents: number;
}

const coverageRank: Record<Coverage, number> = { zip: 0, city: 1, state: 2, none: 3 };
const responseFactor: Record<Urgency, number> = { emergency: 0.25, urgent: 0.5, routine: 1, scheduled: 1 };

function coverageOf(contractor: Contractor, location: JobLocation): Coverage {
  const areas = contractor.service_areas.filter((area) => area.state === location.state.toUpperCase());
  if (!areas.length) return "none";
  const { zip } = location;
  if (zip && areas.some((area) => area.zip_prefixes?.some((prefix) => zip.startsWith(prefix)))) return "zip";
  const city = location.city?.trim().toLowerCase();
  if (city && areas.some((area) => area.cities?.some((name) => name.toLowerCase() === city))) return "city";
  return "state";
}

/** The contractor's response for the urgency: its base response, shorter for urgent work, 15 minutes at least. */
export const responseMinutesOf = (contractor: Pick<Contractor, "base_response_minutes">, urgency: Urgency) =>
  Math.max(15, Math.round(contractor.base_response_minutes * responseFactor[urgency]));

/** Emergencies need an emergency-capable contractor; response time shrinks with urgency. */
export function rankMatches(
  candidates: readonly Contractor[],
  job: { trade: TradeCode; location: JobLocation; urgency: Urgency },
): Match[] {
  const hours = tradeWages[job.trade].typicalHours;
  const multiplier = pricingModel.urgency_multipliers[job.urgency];
  return candidates
    .filter((contractor) => job.urgency !== "emergency" || contractor.emergency_capable)
    .map((contractor) => ({ contractor, coverage: coverageOf(contractor, job.location) }))
    .filter((match): match is { contractor: Contractor; coverage: Match["coverage"] } => match.coverage !== "none")
    .map(({ contractor, coverage }) => ({
      contractor,
      coverage,
      responseMinutes: responseMinutesOf(contractor, job.urgency),
      costCents: jobCents((contractor.hourly_rate_cents / 100) * multiplier, hours),
    }))
    .sort(
      (a, b) =>
        coverageRank[a.coverage] - coverageRank[b.coverage] ||
        a.responseMinutes - b.responseMinutes ||
        a.costCents - b.costCents ||
        a.contractor.id.localeCompare(b.contractor.id),
    );
}

export type EtaTier = "within_1h" | "within_4h" | "same_day" | "next_business_day" | "scheduled" | "unavailable";

/** The facts of a match that its audit record keeps (the contractor only by its masked ref). */
export function matchFacts(match: Match) {
  return { contractor_ref: match.contractor.ref, coverage: match.coverage, quoted_cost_cents: match.costCents };
}

export function etaTier(match: Match | undefined, urgency: Urgency): EtaTier {
  if (!match) return "unavailable";
  if (urgency === "scheduled") return "scheduled";
  const minutes = match.responseMinutes;
  if (minutes <= 60) return "within_1h";
  if (minutes <= 240) return "within_4h";
  if (minutes <= 720) return "same_day";
  return "next_business_day";
}
