// Escalating an order once, still unassigned at its fulfilment deadline: whether it is due and why, under its row
// lock; the core writes it (orders/escalation-record.ts). dispatcher/escalation.ts finds the orders.
import type { Db } from "../../../db/knex.js";
import { fulfilmentDeadline } from "../fulfilment-deadline.js";
import { isHeldOverNte } from "../orders/nte-rule.js";
import { recordEscalation } from "../orders/escalation-record.js";
import { nowDate } from "../../shared/clock.js";

/** Why nobody took an order's job in a sweep: nobody serves it, or everyone who does is fully booked (or off). */
export type WaitingReason = "no_contractor_in_area" | "no_window_available";

/** Escalates the order if still unassigned and not escalated (under its row lock); true when it did. */
export async function escalate(
  db: Db,
  id: string,
  { base, now = nowDate(), waiting }: { base: string; now?: Date; waiting?: WaitingReason },
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = await trx("orders").where({ id }).forUpdate().first();
    if (row?.status !== "accepted_pending_fulfilment" || row.escalated_at) return false;
    const deadline = fulfilmentDeadline(row.urgency, new Date(row.created_at));
    if (deadline > now) return false;
    const reason = isHeldOverNte(row) ? "over_nte" : (waiting ?? "no_contractor_in_area");
    const escalation = { reason, deadline_at: deadline.toISOString(), escalated_at: now.toISOString() } as const;
    await recordEscalation(trx, row, { escalation, at: now, deadline, base });
    return true;
  });
}
