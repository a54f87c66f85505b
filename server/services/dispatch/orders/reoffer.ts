// Re-offering a job after a decline or an expiry (an order change, so it lives with the order service; offers/
// decides when): the next eligible contractor by the same ranking and seat
// ledger as every assignment (orders/assign.ts), without the contractors that already had an offer of this order
// and within the order's NTE; its seats replace the previous contractor's in one transaction, the order keeps
// pending_dispatch with `assigned_contractor_ref` naming the new contractor, and `order.assigned` says so with
// `reassigned: true`. When none is left the order returns to accepted_pending_fulfilment, its seats freed: the
// dispatcher matches it again as the pool changes (still without those contractors) and escalates it at its
// fulfilment deadline. Several instances may try at once: each step re-checks under the order's row lock that it
// is still pending_dispatch without an open offer, and the one-open-offer index refuses a second offer anyway.
import { nowDate } from "../../shared/clock.js";
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import { DomainError } from "../../errors.js";
import { writeOrderEvents } from "./event-writes.js";
import { bookingRow } from "../bookings.js";
import { matchFacts } from "../matching.js";
import { assignWithSeats, type Assigner, type OfferedPlan } from "./assign.js";
import { dispatchEta, etaView, noEta } from "./eta.js";
import { openOffer } from "../offers/records.js";

export interface Reoffering extends Assigner {
  db: Db;
}

/** Nobody (else) serves the job, or all who do are fully booked. */
export const isUnmatchable = (error: unknown) =>
  error instanceof DomainError && (error.code === "no_contractor_in_area" || error.code === "no_window_available");

/** The contractors that already had an offer of the order. */
export async function offeredBefore(db: Db | Knex.Transaction, orderId: string): Promise<Set<string>> {
  const rows = await db("order_offers").where({ order_id: orderId }).select("contractor_id");
  return new Set(rows.map((row) => row.contractor_id));
}

/** The order under its row lock when it still waits for a contractor's answer that nobody holds; else null. */
async function lockWaiting(trx: Knex.Transaction, id: string): Promise<OrderRow | null> {
  const row = await trx("orders").where({ id }).forUpdate().first();
  if (row?.status !== "pending_dispatch") return null;
  const open = await trx("order_offers").where({ order_id: id, status: "offered" }).first("id");
  return open ? null : row;
}

/** Moves the order's offer and seats to the planned contractor; false when another instance already moved it. */
async function moveOffer(trx: Knex.Transaction, id: string, plan: OfferedPlan, base: string): Promise<boolean> {
  const row = await lockWaiting(trx, id);
  if (!row) return false;
  const now = nowDate();
  const { match, booking } = plan;
  await trx("contractor_bookings").where({ order_id: id }).delete();
  await trx("contractor_bookings").insert(bookingRow(id, booking));
  const update = {
    contractor_id: match.contractor.id,
    quoted_cost_cents: match.costCents,
    estimated_response_minutes: match.responseMinutes,
    arrival_window_start: new Date(booking.window.start),
    arrival_window_end: new Date(booking.window.end),
    updated_at: now,
    ...dispatchEta(match.responseMinutes, now, booking.window.start),
  };
  await trx("orders").where({ id }).update(update);
  await openOffer(trx, row, match.contractor.id, { now, respondBy: plan.respondBy });
  const eta = etaView({ ...row, ...update });
  const data = { reassigned: true, ...(eta ? { eta } : {}) };
  await writeOrderEvents(trx, row, [{ type: "order.assigned", data }], { now, base });
  const tenant = { account: row.account, environment: row.environment };
  await appendAudit(trx, { type: "match", tenant, subject: id, content: { ...matchFacts(match), reoffer: true } });
  return true;
}

/** Nobody is left to offer the job: back to the dispatcher's queue, seats freed; false when already moved on. */
async function returnToQueue(trx: Knex.Transaction, id: string, base: string): Promise<boolean> {
  const row = await lockWaiting(trx, id);
  if (!row) return false;
  const now = nowDate();
  await trx("contractor_bookings").where({ order_id: id }).delete();
  await trx("orders")
    .where({ id })
    .update({
      status: "accepted_pending_fulfilment",
      contractor_id: null,
      estimated_response_minutes: null,
      arrival_window_start: null,
      arrival_window_end: null,
      updated_at: now,
      ...noEta,
    });
  const note = "No contractor accepted the offer; back to the dispatcher.";
  const status = "accepted_pending_fulfilment" as const;
  await writeOrderEvents(trx, row, [{ type: "order.status_changed", status, note }], { now, base });
  const tenant = { account: row.account, environment: row.environment };
  const content = { from: row.status, to: status, note, human_override: false, final_cost_cents: null };
  await appendAudit(trx, { type: "order_status", tenant, subject: id, content });
  return true;
}

/** Offers the waiting order to its next contractor, or returns it to the queue; what happened. */
export async function reOffer(
  deps: Reoffering,
  orderId: string,
  base: string,
): Promise<"reoffered" | "queued" | "unchanged"> {
  const row = await deps.db("orders").where({ id: orderId }).first();
  if (row?.status !== "pending_dispatch") return "unchanged";
  const exclude = await offeredBefore(deps.db, orderId);
  const request = { exclude, maxCostCents: row.nte_cents };
  try {
    const moved = await assignWithSeats(deps, row, request, (plan) =>
      deps.db.transaction((trx) => moveOffer(trx, orderId, plan, base)),
    );
    return moved ? "reoffered" : "unchanged";
  } catch (error) {
    if (!isUnmatchable(error)) throw error;
  }
  return (await deps.db.transaction((trx) => returnToQueue(trx, orderId, base))) ? "queued" : "unchanged";
}
