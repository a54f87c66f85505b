// recordOrderEvent: an operator moves an order (assigning a contractor when it leaves accepted_pending_fulfilment).
import type { Db } from "../../../db/knex.js";
import type { ContractorService } from "../contractors.js";
import { applyEvent } from "./apply-event.js";
import { matchUnassigned } from "./assign.js";
import { orderNotFound } from "./errors.js";
import { assertTransition, type OrderEventInput } from "./transition.js";

/** 404 unknown order, 409 invalid transition, 422 missing fields. */
export async function recordEvent(
  db: Db,
  contractors: ContractorService,
  event: { id: string; input: OrderEventInput; base: string },
) {
  const { id, input, base } = event;
  const current = await db("orders").where({ id }).first();
  if (!current) throw orderNotFound(id);
  assertTransition(current, input);
  const assigning = current.status === "accepted_pending_fulfilment" && input.status === "pending_dispatch";
  const match = assigning ? await matchUnassigned(contractors, current, { contractorId: input.contractor_id }) : null;
  return db.transaction((trx) => applyEvent(trx, id, input, match, base));
}
