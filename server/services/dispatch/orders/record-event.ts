// recordOrderEvent: an operator moves an order on its tenant's clock (shared/test-clock.ts); contractors report their own
// status, so every step taken here is a person stepping in: always recorded as a human override.
import type { Db } from "../../../db/knex.js";
import { applyEvent } from "./apply-event.js";
import { assignWithSeats, type Assigner } from "./assign.js";
import { orderNotFound } from "./errors.js";
import { onTenantClock } from "../../shared/test-clock.js";
import { assertTransition, type OrderEventInput } from "./transition.js";

/** 404 unknown order, 409 invalid transition, 422 missing fields. */
export async function recordEvent(
  db: Db,
  assigner: Assigner,
  event: { id: string; input: OrderEventInput; base: string },
) {
  const { id, base } = event;
  const input = { ...event.input, human_override: true };
  const current = await db("orders").where({ id }).first();
  if (!current) throw orderNotFound(id);
  return onTenantClock(db, current, async () => {
    assertTransition(current, input);
    const assigning = current.status === "accepted_pending_fulfilment" && input.status === "pending_dispatch";
    if (!assigning) return db.transaction((trx) => applyEvent(trx, id, input, null, base));
    return assignWithSeats(assigner, current, { contractorId: input.contractor_id }, (plan) =>
      db.transaction((trx) => applyEvent(trx, id, input, plan, base)),
    );
  });
}
