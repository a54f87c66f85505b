// Which orders are overdue for escalation: unassigned, not yet escalated and past their urgency's fulfilment
// deadline on their tenant's clock, a page at a time; escalate.ts escalates each once.
import type { Db } from "../../../db/knex.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { fulfilmentDeadlineMinutes } from "../fulfilment-deadline.js";
import { urgencies } from "../trades.js";
import { scopeOf, tenantNow } from "../../shared/test-clock.js";

export type { WaitingReason } from "./escalate.js";

/** Overdue, unassigned, not yet escalated orders, oldest first, by each tenant's time (shared/test-clock.ts). */
export function overdueOrders(
  db: Db,
  now: Date,
  page: { limit: number; account?: string; after?: Pick<OrderRow, "created_at" | "id"> | null },
) {
  const { limit, account, after } = page;
  const at = tenantNow(db, "orders", now);
  const query = db("orders")
    .where("status", "accepted_pending_fulfilment")
    .whereNull("escalated_at")
    .modify(scopeOf("orders", account))
    .where((overdue) => {
      for (const urgency of urgencies)
        void overdue.orWhere((one) => {
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
  if (after) void query.whereRaw('("orders"."created_at", "orders"."id") > (?, ?)', [after.created_at, after.id]);
  return query;
}
