// Escalating an order once, still unassigned at its fulfilment deadline: when, why, the deadline, an
// `order.escalated` event and an audit record, under its row lock. dispatcher/escalation.ts finds the orders.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import { writeOrderEvents } from "./event-writes.js";
import type { Schemas } from "../../../types/contract.js";
import { fulfilmentDeadline } from "../fulfilment-deadline.js";
import { isHeldOverNte } from "./nte-rule.js";
import { nowDate } from "../../shared/clock.js";

/** Why nobody took an order's job in a sweep: nobody serves it, or everyone who does is fully booked (or off). */
export type WaitingReason = "no_contractor_in_area" | "no_window_available";

async function writeEscalation(
  trx: Knex.Transaction,
  row: OrderRow,
  change: { escalation: Schemas["Escalation"]; at: Date; base: string },
) {
  const { escalation, at, base } = change;
  const tenant = { account: row.account, environment: row.environment };
  await writeOrderEvents(trx, row, [{ type: "order.escalated", data: { escalation } }], { now: at, base });
  await appendAudit(trx, { type: "escalation", tenant, subject: row.id, content: { ...escalation } });
}

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
    await trx("orders")
      .where({ id })
      .update({ escalated_at: now, escalation_reason: reason, escalation_deadline_at: deadline, updated_at: now });
    const escalation = { reason, deadline_at: deadline.toISOString(), escalated_at: now.toISOString() } as const;
    await writeEscalation(trx, row, { escalation, at: now, base });
    return true;
  });
}
