// Re-planning at each sweep: orders booked to arrive after a fulfilment deadline still ahead, technician not yet set
// off, brought by it (day-plan.ts) with every move announced as order.rescheduled by `dispatch`. Planned on one read
// of their contractors' days; only a plan found is written, in one transaction under the orders' row locks, against
// a fresh read there; the slots' and day seats' unique indexes guard every other instance.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import type { Contractor, ContractorService } from "../contractors.js";
import { fulfilmentDeadlineSql } from "../fulfilment-deadline.js";
import { isSeatTaken } from "../bookings.js";
import { replanLate } from "../day-plan.js";
import { travelReady } from "../travel.js";
import { dayLedger, readDays, writePlan, type DayRead } from "../orders/make-way.js";
import { now as nowMs, nowDate } from "../../shared/clock.js";
import { notSetOffStatuses } from "../orders/state.js";
import { onTenantClock, scopeOf, tenantNow } from "../../shared/test-clock.js";
import { isolated, type OrderFailed } from "../orders/order-failures.js";

export interface Replanner {
  db: Db;
  contractors: ContractorService;
  base: string;
  failed: OrderFailed;
}

const pageSize = 100;

const deadlineSql = fulfilmentDeadlineSql("orders");

type LateRow = Pick<OrderRow, "id" | "account" | "environment"> & { contractor_id: string };

/** Orders booked to arrive after a deadline still ahead, technician not set off (by its status: en_route is the
 * contractor's report), window the dispatch's own. */
function lateOrders(db: Db, account: string | undefined): Promise<LateRow[]> {
  const now = tenantNow(db, "orders", nowDate());
  return db("orders")
    .join("contractor_bookings as b", "b.order_id", "orders.id")
    .whereIn("orders.status", notSetOffStatuses)
    .where("orders.window_fixed", false)
    .whereNotNull("b.seat")
    .whereRaw(`b.arrival_at > ${deadlineSql}`)
    .whereRaw(`${deadlineSql} > ?`, [now])
    .modify(scopeOf("orders", account))
    .orderByRaw(`${deadlineSql}, orders.id`)
    .limit(pageSize)
    .select("orders.id", "orders.account", "orders.environment", "orders.contractor_id");
}

/** Whether the contractor's day, as `db` reads it now, has a re-plan for the order. */
async function planFor(db: Db | Knex.Transaction, late: LateRow, contractor: Contractor) {
  const now = nowMs();
  const reads = await readDays(db, late.environment, [contractor.id], now);
  return { reads, plan: replanLate(dayLedger(contractor, reads, now), late.id, now) };
}

/** Re-plans one late order under its row lock (and the yielding order's, skipped when another instance holds it),
 * on a fresh read of its contractor's day. */
async function replanOne(trx: Knex.Transaction, base: string, late: LateRow, contractor: Contractor) {
  const row: OrderRow | undefined = await trx("orders").where({ id: late.id }).forUpdate().first();
  if (row?.contractor_id !== contractor.id || !notSetOffStatuses.includes(row.status) || row.window_fixed) return false;
  const { reads, plan } = await planFor(trx, late, contractor);
  if (!plan) return false;
  const change = { now: nowDate(), base };
  return writePlan(trx, reads, { late: { row, move: plan.late }, yielded: plan.yielded }, change);
}

/** One pass: the late orders' contractors' days read at once per environment, each late order re-planned where that
 * read has a plan (written against a fresh read under the locks); the number re-planned. A seat another instance
 * took meanwhile leaves the order for the next sweep. */
export async function replanLateOrders(replanner: Replanner, account?: string): Promise<number> {
  const { db } = replanner;
  const late = await lateOrders(db, account);
  if (!late.length) return 0;
  await travelReady();
  const contractors = new Map<string, Contractor>();
  for (const id of new Set(late.map((order) => order.contractor_id))) {
    const contractor = await replanner.contractors.get(id);
    if (contractor) contractors.set(id, contractor);
  }
  const days = new Map<string, DayRead[]>();
  for (const environment of new Set(late.map((order) => order.environment))) {
    const ids = [...new Set(late.filter((o) => o.environment === environment).map((o) => o.contractor_id))];
    days.set(environment, await readDays(db, environment, ids, nowMs()));
  }
  let replanned = 0;
  for (const order of late) {
    const contractor = contractors.get(order.contractor_id);
    if (!contractor) continue;
    const work = () =>
      onTenantClock(db, order, async () => {
        const now = nowMs();
        // a test order on a frozen clock is planned on its own read, at its own instant
        const reads = account
          ? await readDays(db, order.environment, [contractor.id], now)
          : days.get(order.environment)!;
        if (!replanLate(dayLedger(contractor, reads, now), order.id, now)) return false;
        try {
          return await db.transaction((trx) => replanOne(trx, replanner.base, order, contractor));
        } catch (error) {
          if (isSeatTaken(error)) return false;
          throw error;
        }
      });
    if (await isolated(replanner.failed, "replan", order, work)) replanned++;
  }
  return replanned;
}
