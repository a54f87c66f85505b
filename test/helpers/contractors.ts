// The contractor side's test scaffolding: an admin call, an Anchorage plumber (nobody in the demo pool serves AK,
// so the suite's own contractors are the only candidates), a contractor key of it and an AK order.
import assert from "node:assert/strict";
import { anchorageContractor, orderRequest } from "../fixtures/requests.js";
import { jsonRequest } from "./request.js";
import { adminToken, type ServerTarget } from "./server.js";

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
