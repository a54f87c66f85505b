// A contractor giving back a job it accepted (jobs/report.ts, `unable_to_attend`): under the order's row lock, held
// by the caller, the order returns to pending_dispatch with an order.status_changed event and its audit record, and
// keeps its contractor and seats until the re-offer (reoffer.ts) moves them or frees them. Only before the
// contractor is on site: a job on site is finished or cancelled, not given back.
import type { Knex } from "knex";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import { DomainError } from "../../errors.js";
import { nowDate } from "../../shared/clock.js";
import { writeOrderEvents } from "./event-writes.js";

/** Statuses a contractor may give a job back from: it has not arrived yet. */
const givable: readonly OrderRow["status"][] = ["dispatched", "en_route"];

/** `note`: why, as the status event and its audit record keep it. */
export async function giveBackJob(trx: Knex.Transaction, row: OrderRow, note: string, base: string): Promise<void> {
  if (!givable.includes(row.status))
    throw new DomainError(
      "conflict",
      "invalid_transition",
      `Order ${row.id} is ${row.status}; a contractor gives a job back only before it is on site (${givable.join(" or ")}).`,
    );
  const now = nowDate();
  const status = "pending_dispatch" as const;
  await trx("orders").where({ id: row.id }).update({ status, updated_at: now });
  await writeOrderEvents(trx, row, [{ type: "order.status_changed", status, note }], { now, base });
  const tenant = { account: row.account, environment: row.environment };
  const content = { from: row.status, to: status, note, human_override: false, final_cost_cents: null };
  await appendAudit(trx, { type: "order_status", tenant, subject: row.id, content });
}
