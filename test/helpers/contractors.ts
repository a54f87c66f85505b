// The contractor side's test scaffolding: an admin call, an Anchorage plumber (nobody in the demo pool serves AK,
// so the suite's own contractors are the only candidates), a contractor key of it and an AK order; the world the
// offers and jobs suites share (two plumbers and their keys), an order offered in it, an answer and the customer's
// view of the order.
import assert from "node:assert/strict";
import type { components } from "../../sdk/generated/openapi.js";
import { anchorageContractor, orderRequest } from "../fixtures/requests.js";
import { jsonRequest } from "./request.js";
import { isBookable, withOffset, workedWindows } from "../../server/services/dispatch/arrival-windows.js";
import { arrivalMarginMs } from "../../server/services/dispatch/technician-time.js";
import { stateTimeZone } from "../../server/services/dispatch/state-zones.js";
import { now } from "../../server/services/shared/clock.js";
import { adminToken, startTestServer, type ServerTarget, type TestDatabase, type TestServer } from "./server.js";

export const admin = { authorization: `Bearer ${adminToken}` };

export const call = async (
  t: ServerTarget,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) => {
  const response = await jsonRequest(t, method, path, { headers, body });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
};

/** An Anchorage plumber working all week. */
export async function plumber(t: ServerTarget, name: string, hourly: number) {
  const body = { ...anchorageContractor("plumbing", name), hourly_rate_cents: hourly };
  const created = await call(t, "POST", "/api/admin/v1/contractors", admin, body);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { id: created.body.id as string, ref: created.body.ref as string };
}

export async function contractorKey(t: ServerTarget, contractorId: string, environment: "live" | "test" = "live") {
  const issued = await call(t, "POST", `/api/admin/v1/contractors/${contractorId}/keys`, admin, { environment });
  assert.equal(issued.status, 201, JSON.stringify(issued.body));
  return issued.body as { id: string; key: string; contractor_id: string; scopes: string[]; account: string };
}

export const alaskaOrder = (reference: string) => ({
  ...orderRequest,
  location: { state: "AK", city: "Anchorage", zip: "99501", address: "1 Main St", name: "Back office" },
  reference_id: reference,
  nte_cents: 100_000,
  callback_url: undefined,
});

/** A server (the dispatcher sweeping every second) with a live customer key of acme and two Anchorage plumbers, the
 * cheaper ranking first, each with a live contractor key; `env`: more of the server's settings. */
export async function startContractorWorld(target: TestDatabase, env: Record<string, string> = {}) {
  const t = await startTestServer(target, { DISPATCHER_INTERVAL_MS: "1000", ...env });
  const customer = (await t.issueKey({ account: "acme", environment: "live" })).key;
  const first = await plumber(t, "Cheap Anchorage Plumbing", 8000);
  const second = await plumber(t, "Dear Anchorage Plumbing", 12_000);
  const firstKey = (await contractorKey(t, first.id)).key;
  const secondKey = (await contractorKey(t, second.id)).key;
  return { t, customer, first, second, firstKey, secondKey };
}

/** A new AK order of `customer` (offered to the cheaper plumber first); its open offer's row. */
export async function offeredOrder(t: TestServer, customer: string, reference: string) {
  const created = await call(t, "POST", "/api/dispatch/v1/order", { "x-api-key": customer }, alaskaOrder(reference));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const orderId = (created.body.order as { id: string }).id;
  const offer = await t.app.services.db("order_offers").where({ order_id: orderId, status: "offered" }).first();
  return { orderId, offer: offer! };
}

/** acceptOffer or declineOffer with `key`, as answered. */
export const answerOffer = (t: ServerTarget, key: string, id: string, verb: "accept" | "decline", body?: unknown) =>
  call(t, "POST", `/api/dispatch/v1/contractor/offers/${id}/${verb}`, { "x-api-key": key }, body);

/** getOrder with the customer's `key`. */
export const orderOf = async (t: ServerTarget, key: string, id: string) =>
  (await call(t, "GET", `/api/dispatch/v1/orders/${id}`, { "x-api-key": key }))
    .body as unknown as components["schemas"]["OrderStatus"];

/** Windows of the order's contractor other than its own, in the job's offset: the bookable ones (latest last) and
 * one the contractor works beyond the urgency's horizon. */
export async function windowsOf(t: TestServer, orderId: string) {
  const row = (await t.app.services.db("orders").where({ id: orderId }).first())!;
  const contractor = (await t.app.services.contractors.get(row.contractor_id!))!;
  const zone = stateTimeZone(row.state);
  const at = now();
  const booked = new Date(row.arrival_window_start!).getTime();
  const worked = workedWindows(contractor, zone, at).filter(({ window }) => window.start !== booked);
  const text = ({ window }: (typeof worked)[number]) => ({
    start: withOffset(zone, window.start),
    end: withOffset(zone, window.end),
  });
  // bookable and reachable: the technician, setting off now, arrives no later than the margin before the end
  const reachable = (end: number) => end - arrivalMarginMs >= at + row.estimated_response_minutes! * 60_000;
  const bookable = worked
    .filter(({ window }) => isBookable(window, row.urgency, at) && reachable(window.end))
    .map(text);
  const beyond = worked.find(({ window }) => window.start > at + 3 * 24 * 3_600_000);
  return { bookable, beyond: text(beyond!) };
}
