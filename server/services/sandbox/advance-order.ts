// advanceSandboxOrder: a test order moved by hand, one step or up to `to`. A scenario may end the walk short
// (sandbox/scenarios.ts); a queued order is then the dispatcher's, as live, so the walk stops and answers it.
import type { OrderRow } from "../../db/tables/dispatch.js";
import type { Tenant } from "../access/principal.js";
import { DomainError } from "../errors.js";
import type { Schemas } from "../../types/contract.js";
import { liveKey, orderNotFound } from "../dispatch/orders/errors.js";
import { isHeldOverNte } from "../dispatch/orders/nte-rule.js";
import { heldOrder, step, type SandboxClock } from "./clock.js";
import { isAhead, nextStep } from "../dispatch/orders/state.js";

export type SandboxStatus = NonNullable<Schemas["SandboxAdvanceRequest"]["to"]>;

const notAhead = (detail: string) => new DomainError("conflict", "invalid_transition", detail);

/** The status to stop at: 409 unless it lies ahead of the order's. */
function targetOf(row: OrderRow, to: SandboxStatus | undefined): Schemas["OrderLifecycleStatus"] {
  const next = nextStep(row.status);
  if (!next) throw notAhead(`order ${row.id} is ${row.status}; a final order takes no more steps.`);
  const target = to ?? next;
  if (!isAhead(row.status, target))
    throw notAhead(`order ${row.id} is ${row.status}; ${target} is not ahead of it (the sandbox only moves forward).`);
  return target;
}

/** 403 for live keys, 404 for another tenant's order, 409 for a held order or a target not ahead. */
export async function advanceSandboxOrder(
  clock: SandboxClock,
  tenant: Tenant,
  request: { id: string; to: SandboxStatus | undefined },
) {
  const { id, to } = request;
  if (tenant.environment !== "test")
    throw liveKey("Only orders made with a dispatch_test_ key can be advanced by hand.");
  let row = await clock
    .db("orders")
    .where({ id, ...tenant })
    .first(); // test orders only
  if (!row) throw orderNotFound(id);
  if (isHeldOverNte(row)) throw heldOrder(id);
  const target = targetOf(row, to);
  let view;
  do {
    view = await step(clock, row);
    row = await clock.db("orders").where({ id }).first();
  } while (row && row.status !== target && nextStep(row.status) && row.status !== "accepted_pending_fulfilment");
  return view;
}
