// Quotes: match the pool, price the best match, say whether it fits the NTE, record the quote.
import type { Config } from "../../config.js";
import type { Db } from "../../db/knex.js";
import { assertDispatchConfigured } from "./availability.js";
import { appendAudit } from "../audit/chain.js";
import type { ContractorService } from "./contractors.js";
import { newId } from "../shared/ids.js";
import { etaTier, rankMatches, type JobLocation, type Match } from "./matching.js";
import { usd } from "./pricing.js";
import type { TradeCode, Urgency } from "./trades.js";

export interface QuoteInput {
  trade: TradeCode;
  location: JobLocation;
  urgency: Urgency;
  nte_cents?: number;
  description?: string;
}

const validForMinutes: Record<Urgency, number> = { emergency: 15, urgent: 30, routine: 60, scheduled: 240 };

interface Principal {
  id: string;
  account: string | null;
}

function nteOf(nteCents: number | undefined, cost: number | null) {
  if (nteCents === undefined) return null;
  return {
    nte_cents: nteCents,
    fits: cost !== null && cost <= nteCents,
    headroom_cents: cost === null ? 0 : nteCents - cost,
  };
}

/** The Quote of the contract for the ranked matches (best first). */
function quoteOf(input: QuoteInput, location: JobLocation, matches: Match[], now: Date) {
  const best = matches[0];
  const cost = best?.costCents ?? null;
  return {
    quote_id: newId("qt"),
    trade: input.trade,
    location,
    urgency: input.urgency,
    availability: {
      available: Boolean(best),
      matched_contractors: matches.length,
      coverage: best?.coverage ?? "none",
      best_match_ref: best?.contractor.ref ?? null,
    },
    estimated_cost_cents: cost,
    estimated_cost_usd: cost === null ? null : usd(cost),
    cost_range_cents: cost === null ? null : { low: Math.round(cost * 0.8), high: Math.round(cost * 1.25) },
    eta_tier: etaTier(best, input.urgency),
    estimated_response_minutes: best?.responseMinutes ?? null,
    nte: nteOf(input.nte_cents, cost),
    valid_for_minutes: validForMinutes[input.urgency],
    expires_at: new Date(now.getTime() + validForMinutes[input.urgency] * 60_000).toISOString(),
    created_at: now.toISOString(),
  };
}
type Quote = ReturnType<typeof quoteOf>;

async function recordQuote(db: Db, principal: Principal, quote: Quote, latencyMs: number) {
  const { trade, location, urgency, availability, estimated_cost_cents } = quote;
  await db("quotes").insert({
    id: quote.quote_id,
    principal: principal.id,
    trade,
    state: location.state,
    urgency,
    available: availability.available,
    estimated_cost_cents,
    matched_contractors: availability.matched_contractors,
    latency_ms: latencyMs,
  });
  const content = {
    principal: principal.id,
    trade,
    state: location.state,
    urgency,
    available: availability.available,
    best_match_ref: availability.best_match_ref,
    estimated_cost_cents,
    nte: quote.nte,
  };
  await appendAudit(db, { type: "quote", account: principal.account, subject: quote.quote_id, content });
}

export function createQuoteService(db: Db, contractors: ContractorService, config: Config) {
  return {
    async create(principal: Principal, input: QuoteInput) {
      const started = performance.now();
      await assertDispatchConfigured(config, contractors);
      const location = { ...input.location, state: input.location.state.toUpperCase() };
      const matches = rankMatches(await contractors.candidates(input.trade, location.state), { ...input, location });
      const quote = quoteOf(input, location, matches, new Date());
      await recordQuote(db, principal, quote, Math.round(performance.now() - started));
      return quote;
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
