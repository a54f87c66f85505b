// cancelOrder: the customer's cancellation (audited, evented, webhooked) through the one transition table.
import type { Db } from "../../../db/knex.js";
import type { Tenant } from "../../access/principal.js";
import type { RequestBody } from "../../../types/contract.js";
import { applyEvent } from "./apply-event.js";
import { orderNotFound } from "./errors.js";

export type CancelInput = RequestBody<"cancelOrder">;
export type CustomerCancelReason = CancelInput["reason"];

/** 404 for another tenant's order, the same answer again, 409 once on site. The contract's CustomerCancelReason
 * keeps the operators' reason out (422 at validation). */
export async function cancelOrder(db: Db, tenant: Tenant, id: string, input: CancelInput, base: string) {
  const row = await db("orders")
    .where({ id, ...tenant })
    .first("id");
  if (!row) throw orderNotFound(id);
  const note = `${input.reason} (customer)${input.note ? `: ${input.note}` : ""}`;
  const cancellation = { reason: input.reason, note: input.note ?? null, by: "customer" as const };
  return db.transaction((trx) => applyEvent(trx, id, { status: "cancelled", note, cancellation }, null, base));
}
