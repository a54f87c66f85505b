// What a confirmation preview adds for particular operations beyond ask-first.ts's; optional (no entry is needed to
// confirm), and each entry only reads.
import type { Services } from "../index.js";
import type { Tenant } from "../access/principal.js";
import type { QuoteInput } from "../dispatch/quotes.js";
import { isRecord } from "../shared/is-record.js";

/** An operation's extra preview facts, from its validated input (path params, query, body) and the caller's tenant. */
export type PreviewFacts = Partial<
  Record<
    string,
    (input: { params: unknown; query: unknown; payload: unknown }, tenant: Tenant) => Promise<Record<string, unknown>>
  >
>;

export function createPreviewFacts(services: Pick<Services, "quotes">): PreviewFacts {
  return {
    /** The price a new order would be matched at now (an order of a quote keeps that quote's price). */
    async createOrder({ payload }, tenant) {
      if (!isRecord(payload) || payload.quote_id !== undefined) return {};
      const { trade, location, urgency, nte_cents } = payload as QuoteInput;
      const quote = await services.quotes.estimate({ trade, location, urgency, nte_cents }, tenant.environment);
      const { availability, estimated_cost_cents, cost_range_cents, nte, estimated_response_minutes } = quote;
      return {
        estimate: {
          available: availability.available,
          estimated_cost_cents,
          cost_range_cents,
          nte,
          estimated_response_minutes,
        },
      };
    },
  };
}
