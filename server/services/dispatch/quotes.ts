// Quotes: match the pool, price the best match, say whether it fits the NTE, list the arrival windows the pool's
// technicians can reach, graded (bookings.ts: one indexed read of the candidates' bookings), record the quote.
import type { Environment, Tenant } from "../access/principal.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/knex.js";
import { createGroupCommit } from "../../db/group-commit.js";
import { insertJsonRows } from "../../db/json-rows.js";
import { assertDispatchConfigured } from "./availability.js";
import { auditRow, auditRowColumns, type AuditRow } from "../audit/entries.js";
import type { ContractorService } from "./contractors.js";
import { newId } from "../shared/ids.js";
import { etaTier, rankMatches } from "./matching.js";
import { usd } from "./pricing.js";
import { nteCheck } from "./nte.js";
import type { Urgency } from "./trades.js";
import { jobLocation } from "./job-location.js";
import type { OpenWindow, SeatLedger } from "./bookings.js";
import { arrivalMarginMs } from "./technician-time.js";
import { stateTimeZone } from "./state-zones.js";
import type { Schemas, ValidBody } from "../../types/contract.js";
import { nowDate } from "../shared/clock.js";
import { placeOf } from "./travel.js";

export type QuoteInput = ValidBody<"createQuote">;
type Quote = Schemas["Quote"];

const validForMinutes: Record<Urgency, number> = { emergency: 15, urgent: 30, routine: 60, scheduled: 240 };

type Matches = ReturnType<typeof rankMatches>;
/** Who quotes: a key (its tenant) or an OAuth client (no tenant: its quotes cannot be ordered). */
export interface QuotePrincipal {
  id: string;
  tenant: Tenant | null;
}

/** The quote body: best match's cost and ETA, its range, and how it sits against the caller's NTE. */
function buildQuote(
  input: QuoteInput,
  location: Quote["location"],
  found: { matches: Matches; windows: OpenWindow[] },
  now: Date,
): Quote {
  const { matches, windows } = found;
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
    nte: nteCheck(input.nte_cents, cost),
    valid_for_minutes: validForMinutes[input.urgency],
    expires_at: new Date(now.getTime() + validForMinutes[input.urgency] * 60_000).toISOString(),
    created_at: now.toISOString(),
    arrival_windows: windows.map(({ window, confidence }) => ({
      start: window.startText,
      end: window.endText,
      confidence,
    })),
  };
}

const quoteAudit = (principal: QuotePrincipal, quote: Quote) =>
  auditRow({
    type: "quote",
    tenant: principal.tenant,
    subject: quote.quote_id,
    content: {
      principal: principal.id,
      trade: quote.trade,
      state: quote.location.state,
      urgency: quote.urgency,
      available: quote.availability.available,
      best_match_ref: quote.availability.best_match_ref,
      estimated_cost_cents: quote.estimated_cost_cents,
      nte: quote.nte,
    },
  });

interface QuoteWrite {
  quote: NewQuoteRow;
  record: AuditRow;
}

/** Quote rows and their audit records in one statement: atomic, one round trip for every quote waiting. */
function createQuoteWriter(db: Db) {
  return createGroupCommit<QuoteWrite>(async (writes) => {
    // Every row comes from quoteRow, so the columns (and the statement's text) are the same for every batch.
    const columns = Object.keys(writes[0].quote);
    const sql = `with "quote" as (${insertJsonRows("quotes", columns)}) ${insertJsonRows("audit_records", auditRowColumns)}`;
    const rows = [JSON.stringify(writes.map((w) => w.quote)), JSON.stringify(writes.map((w) => w.record))];
    // Named: node-postgres prepares it once per connection, so Postgres stops parsing and planning it per batch.
    await db.raw(sql, rows).options({ name: "dispatch_write_quotes" });
  });
}

/** The stored quote keeps what ordering it needs: its account, best match, price and expiry. */
const quoteRow = (principal: QuotePrincipal, quote: Quote, best: Matches[number] | undefined, started: number) => ({
  id: quote.quote_id,
  principal: principal.id,
  account: principal.tenant?.account ?? null,
  environment: principal.tenant?.environment ?? null,
  trade: quote.trade,
  state: quote.location.state,
  urgency: quote.urgency,
  available: quote.availability.available,
  estimated_cost_cents: quote.estimated_cost_cents,
  contractor_id: best?.contractor.id ?? null,
  expires_at: quote.expires_at,
  matched_contractors: quote.availability.matched_contractors,
  latency_ms: Math.round(performance.now() - started),
});

type NewQuoteRow = ReturnType<typeof quoteRow>;

/** `seats`: the order service's ledger (its reads and the releases that make them stale). */
export function createQuoteService(db: Db, contractors: ContractorService, config: Config, seats: SeatLedger) {
  const writer = createQuoteWriter(db);

  /** The quote for `input` and its best match, read only (nothing stored). */
  async function price(
    input: QuoteInput,
    environment: Environment,
  ): Promise<{ quote: Quote; best: Matches[number] | undefined }> {
    await assertDispatchConfigured(config, contractors);
    const location = await jobLocation(input.location); // agents' input is not joi-checked
    const matches = rankMatches(await contractors.candidates(input.trade, location.state), { ...input, location });
    const now = nowDate();
    const zone = stateTimeZone(location.state);
    const contractorsOf = matches.map((match) => match.contractor);
    const job = {
      environment,
      zone,
      urgency: input.urgency,
      now: now.getTime(),
      trade: input.trade,
      ...placeOf(location),
    };
    const occupancy = await seats.read(contractorsOf, job);
    // none ends before the quote's own earliest arrival (its estimated_response_minutes from now)
    const earliest = now.getTime() + (matches[0]?.responseMinutes ?? 0) * 60_000;
    const windows = seats
      .openWindows(occupancy, matches)
      .filter(({ window }) => window.end - arrivalMarginMs >= earliest);
    return { quote: buildQuote(input, location, { matches, windows }, now), best: matches[0] };
  }

  return {
    async create(principal: QuotePrincipal, input: QuoteInput): Promise<Quote> {
      const started = performance.now();
      const { quote, best } = await price(input, principal.tenant?.environment ?? "live"); // OAuth tokens are live
      const record = quoteAudit(principal, quote);
      await writer.write({ quote: quoteRow(principal, quote, best, started), record });
      return { ...quote, seal: record.seal };
    },

    /** What `create` would answer, without storing a quote or an audit record (an agent's preview). */
    async estimate(input: QuoteInput, environment: Environment): Promise<Quote> {
      return (await price(input, environment)).quote;
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
