// Example: quote a plumbing job, first with the { data, error } result, then with the throwing unwrap().
// Run against the Prism mock: `npm run mock`, then `DISPATCH_BASE_URL=http://127.0.0.1:4010 npx tsx sdk/examples/quote.ts`.
import { createDispatchClient, DispatchApiError, unwrap, type Schemas } from "../index.js";

const dispatch = createDispatchClient({
  baseUrl: process.env.DISPATCH_BASE_URL ?? "http://127.0.0.1:3000",
  apiKey: process.env.DISPATCH_API_KEY ?? "dispatch_test_example",
  retry: { retries: 2, maxDelayMs: 5_000 },
});

const request = {
  trade: "plumbing",
  location: { state: "TX", zip: "78701", city: "Austin" },
  urgency: "urgent",
  nte_cents: 45_000,
  description: "Kitchen sink supply line leaking under the cabinet.",
} satisfies Schemas["QuoteRequest"];

// 1. openapi-fetch's result: exactly one of data / error is set.
const { data, error, response } = await dispatch.POST("/api/dispatch/v1/quote", { body: request });
if (error) {
  console.error(`quote failed with ${response.status}:`, error);
} else {
  const fits = data.nte ? (data.nte.fits ? "fits" : "does not fit") : "has no NTE";
  console.log(`${data.quote_id}: ${data.estimated_cost_usd} USD, ${data.eta_tier}, ${fits}`);
}

// 2. unwrap(): data, or a DispatchApiError carrying status, code and request id.
try {
  const quote: Schemas["Quote"] = unwrap(
    await dispatch.POST("/api/dispatch/v1/quote", { body: { ...request, urgency: "emergency" } }),
  );
  console.log(`emergency: ${quote.availability.matched_contractors} contractors, valid ${quote.valid_for_minutes} min`);
} catch (err) {
  if (!(err instanceof DispatchApiError)) throw err;
  console.error(`${err.status} ${err.code ?? ""} (request ${err.requestId ?? "?"}): ${err.message}`);
}
