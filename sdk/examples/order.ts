// Example: place an order idempotently, then follow its status URL.
// Run against the Prism mock: `npm run mock`, then `DISPATCH_BASE_URL=http://127.0.0.1:4010 npx tsx sdk/examples/order.ts`.
import { randomUUID } from "node:crypto";
import { createDispatchClient, DispatchApiError, unwrap, type Schemas } from "../index.js";

const dispatch = createDispatchClient({
  baseUrl: process.env.DISPATCH_BASE_URL ?? "http://127.0.0.1:3000",
  apiKey: process.env.DISPATCH_API_KEY ?? "dispatch_test_example",
});

const order = {
  trade: "plumbing",
  location: { state: "TX", zip: "78701", city: "Austin", address: "500 Congress Ave" },
  urgency: "urgent",
  nte_cents: 45_000,
  description: "Kitchen sink supply line leaking under the cabinet.",
  reference_id: "acme-wo-1042",
} satisfies Schemas["OrderRequest"];

try {
  // The same Idempotency-Key on a retry replays the first answer instead of ordering twice.
  const placed = unwrap(
    await dispatch.POST("/api/dispatch/v1/order", {
      body: order,
      params: { header: { "Idempotency-Key": randomUUID() } },
    }),
  );
  // 201: a contractor is assigned; 202: accepted, fulfilment pending.
  console.log(
    placed.fulfilled ? `assigned ${placed.order.assigned_contractor_ref}` : `accepted: ${placed.order.status}`,
  );

  const status = unwrap(
    await dispatch.GET("/api/dispatch/v1/orders/{id}", { params: { path: { id: placed.order.id } } }),
  );
  console.log(`${status.id} is ${status.status}`);
} catch (err) {
  if (!(err instanceof DispatchApiError)) throw err;
  // 402: the key may quote but not order; 409: reference_id already used with another body.
  console.error(`${err.status} ${err.code ?? ""}: ${err.message}`);
  process.exitCode = 1;
}
