// What a confirmation preview adds for particular operations, beyond what ask-first.ts shows for any operation
// (the validated arguments; the order an action on an order would touch). Optional by design: an operation that
// carries x-mcp-confirm needs no entry here to be confirmed. Each entry reads only, never writes.
import type { Services } from "../index.js";
import type { QuoteInput } from "../dispatch/quotes.js";
import { isRecord } from "../shared/is-record.js";

/** An operation's extra preview facts, from its validated input (path params, query, body). */
export type PreviewFacts = Partial<
  Record<string, (input: { params: unknown; query: unknown; payload: unknown }) => Promise<Record<string, unknown>>>
>;

export function createPreviewFacts(services: Pick<Services, "quotes">): PreviewFacts {
  return {
    /** The price a new order would be matched at now: the quote createOrder's matching would give (not stored).
     * An order of a quote (`quote_id`) keeps that quote's price instead, which its preview's arguments name. */
    async createOrder({ payload }) {
      if (!isRecord(payload) || payload.quote_id !== undefined) return {};
      const { trade, location, urgency, nte_cents } = payload as QuoteInput;
      const quote = await services.quotes.estimate({ trade, location, urgency, nte_cents });
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
