// Escalation: an order still `accepted_pending_fulfilment` at its fulfilment deadline (fulfilment-deadline.ts) is
// handed to people once. Under the order's row lock it keeps when, why (`over_nte` when it is held over its NTE,
// `no_window_available` when the sweep that escalates it found its contractors fully booked, else
// `no_contractor_in_area`) and the deadline, and gets an `order.escalated` event (a fact of its own: no status
// changes), its webhook and an `escalation` audit record, in one transaction. The lock and the `escalated_at is
// null` check under it make it once per order however many instances sweep; the dispatcher calls it for the pages
// of overdue orders it reads (the partial index orders_awaiting_escalation), and still assigns an escalated order
// if a contractor can take it later.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import { writeOrderEvents } from "./event-writes.js";
import type { Schemas } from "../../../types/contract.js";
import { fulfilmentDeadline, fulfilmentDeadlineMinutes } from "../fulfilment-deadline.js";
import { urgencies } from "../trades.js";
import { isHeldOverNte } from "./nte-rule.js";
import { nowDate } from "../../shared/clock.js";
import { scopeOf, tenantNow } from "./test-clock.js";

/** Why nobody took an order's job in a sweep: nobody serves it, or everyone who does is fully booked (or off). */
export type WaitingReason = "no_contractor_in_area" | "no_window_available";

/** Overdue, unassigned, not yet escalated orders, oldest first: one page. Overdue by each order's tenant's time
 * (test-clock.ts: a frozen sandbox's instant for its test orders, `now` for the rest). `account`: only that
 * account's test orders (an advance of its clock). */
export function overdueOrders(db: Db, now: Date, limit: number, account?: string) {
  const at = tenantNow(db, "orders", now);
  return db("orders")
    .where("status", "accepted_pending_fulfilment")
    .whereNull("escalated_at")
    .modify(scopeOf("orders", account))
    .where((query) => {
      for (const urgency of urgencies)
        void query.orWhere((one) => {
          const minutes = fulfilmentDeadlineMinutes[urgency];
          void one.where("urgency", urgency).whereRaw("created_at <= ? - (? * interval '1 minute')", [at, minutes]);
        });
    })
    .orderBy([
      { column: "created_at", order: "asc" },
      { column: "id", order: "asc" },
    ])
    .limit(limit)
    .select<OrderRow[]>("*");
}

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

/** Escalates the order if it is still unassigned and not escalated (under its row lock); true when it did. `waiting`:
 * why the sweep found nobody for its job (no_contractor_in_area when it did not say). */
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
