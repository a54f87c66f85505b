// cancelOrder: the customer's cancellation (audited, evented, webhooked) through the one transition table.
import type { Db } from "../../../db/knex.js";
import type { Tenant } from "../../access/principal.js";
import type { RequestBody } from "../../../types/contract.js";
import { applyEvent } from "./apply-event.js";
import { orderNotFound } from "./errors.js";
import { DomainError } from "../../errors.js";

export type CancelInput = RequestBody<"cancelOrder">;
export type CancelReason = CancelInput["reason"];

/** Operators' reasons: a key claiming one would record a decision no operator made. */
const operatorReasons: readonly string[] = ["operator_decision"];

function assertCustomerReason(reason: CancelReason): void {
  if (!operatorReasons.includes(reason)) return;
  const detail = `"reason" ${reason} is for operators' cancellations; an API key cancels with customer_request, duplicate, resolved_elsewhere or other.`;
  throw new DomainError("validation", "validation_failed", detail, {
    errors: [{ pointer: "/reason", message: detail }],
  });
}

/** 422 for an operator's reason, 404 for another tenant's order, the same answer again, 409 once on site. */
export async function cancelOrder(db: Db, tenant: Tenant, id: string, input: CancelInput, base: string) {
  assertCustomerReason(input.reason);
  const row = await db("orders")
    .where({ id, ...tenant })
    .first("id");
  if (!row) throw orderNotFound(id);
  const note = `${input.reason} (customer)${input.note ? `: ${input.note}` : ""}`;
  const cancellation = { reason: input.reason, note: input.note ?? null, by: "customer" as const };
  return db.transaction((trx) => applyEvent(trx, id, { status: "cancelled", note, cancellation }, null, base));
}
