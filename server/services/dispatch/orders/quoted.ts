// Ordering a quote (createOrder's quote_id): the account's unexpired quote for the same job, and the match it keeps.
import type { Tenant } from "../../access/principal.js";
import type { Db } from "../../../db/knex.js";
import type { QuoteRow } from "../../../db/tables/dispatch.js";
import type { Contractor } from "../contractors.js";
import { DomainError } from "../../errors.js";
import { rankMatches, type JobLocation, type Match } from "../matching.js";
import type { TradeCode, Urgency } from "../trades.js";
import { now as nowMs } from "../../shared/clock.js";

export type OrderedQuote = Pick<QuoteRow, "id" | "contractor_id" | "estimated_cost_cents">;
type QuoteOfOrder = OrderedQuote & Pick<QuoteRow, "trade" | "state" | "urgency" | "expires_at">;
interface Job {
  trade: TradeCode;
  location: JobLocation;
  urgency: Urgency;
}

function assertSameJob(quote: QuoteOfOrder, job: Job): void {
  const differences = [
    { pointer: "/trade", field: "trade", given: job.trade, quoted: quote.trade },
    { pointer: "/location/state", field: "location.state", given: job.location.state, quoted: quote.state },
    // the quote's price was made for its urgency: an emergency must not be ordered at a routine quote's price
    { pointer: "/urgency", field: "urgency", given: job.urgency, quoted: quote.urgency },
  ].filter((difference) => difference.given !== difference.quoted);
  if (!differences.length) return;
  const errors = differences.map((difference) => ({
    pointer: difference.pointer,
    message: `${difference.field} is ${difference.given}, the quote's is ${difference.quoted}.`,
  }));
  throw new DomainError(
    "validation",
    "quote_mismatch",
    `The order differs from quote ${quote.id}: ${errors.map((error) => error.message).join(" ")}`,
    { errors },
  );
}

/** One SELECT: 404 unless the account's quote, 422 `quote_mismatch`, 409 once expired. */
export async function quoteForOrder(db: Db, tenant: Tenant, quoteId: string, job: Job): Promise<OrderedQuote> {
  const quote = await db("quotes")
    .where({ id: quoteId, ...tenant })
    .first("id", "trade", "state", "urgency", "contractor_id", "estimated_cost_cents", "expires_at");
  if (!quote) throw new DomainError("not_found", "not_found", `No quote ${quoteId} for this account.`);
  assertSameJob(quote, job);
  const expiresAt = quote.expires_at === null ? null : new Date(quote.expires_at);
  if (!expiresAt || expiresAt.getTime() <= nowMs())
    throw new DomainError(
      "conflict",
      "quote_expired",
      `Quote ${quoteId} expired${expiresAt ? ` at ${expiresAt.toISOString()}` : ""}; quote again.`,
    );
  return quote;
}

/** The order's matches: the quoted contractor first while the pool still has it for this job, carrying its price. */
export function quotedMatches(candidates: readonly Contractor[], job: Job, quote: OrderedQuote): Match[] {
  const ranked = rankMatches(candidates, job);
  const best = ranked.find((match) => match.contractor.id === quote.contractor_id) ?? ranked[0];
  if (!best) return [];
  const priced = { ...best, costCents: quote.estimated_cost_cents ?? best.costCents };
  return [priced, ...ranked.filter((match) => match !== best)];
}
