// Re-offering a job after a decline, an expiry or a give-back, at the order's price and announcing a moved window,
// or back to the queue when nobody is left (docs/decisions.md#the-order-core-modules).
import { nowDate } from "../../shared/clock.js";
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import { DomainError } from "../../errors.js";
import { writeOrderEvents, type EventWrite } from "./event-writes.js";
import { assignedData } from "../../events/catalogue.js";
import { arrivalWindowOf } from "./arrival-window.js";
import { moveStatus } from "./move-status.js";
import { assignmentColumns, unassignedColumns } from "./assignment.js";
import { bookingRow } from "../bookings.js";
import { matchFacts } from "../matching.js";
import { actOnOutcome, type Assigner, type OfferedPlan } from "./assign.js";
import { dispatchEta, etaView, noEta } from "./eta.js";
import { openOffer } from "./offer-records.js";

export interface Reoffering extends Assigner {
  db: Db;
}

/** What the contractor side's operations work with (offers, jobs, the sandbox's simulated contractors). */
export interface Answering extends Reoffering {
  /** Told after order events are written (the feed sequencer's nudge). */
  eventsWritten: () => void;
}

const timeOf = (at: Date | string | null) => (at === null ? null : new Date(at).getTime());

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

/** The customer pays what it was quoted: a re-assignment keeps the order's price, the next contractor is offered the
 * job at it, a higher one only through an approved price revision (docs/decisions.md, "Re-assignment keeps the
 * promise"). */
const keptPrice = (row: OrderRow) =>
  row.quoted_cost_cents === null ? {} : { quoted_cost_cents: row.quoted_cost_cents };

/** order.assigned with the estimate, window and price, then order.rescheduled when the booking moved the window. */
function reassignedEvents(row: OrderRow, moved: OrderRow): EventWrite[] {
  const arrival_window = arrivalWindowOf(moved);
  const previous_arrival_window = arrivalWindowOf(row);
  const events: EventWrite[] = [
    { type: "order.assigned", data: assignedData(true, { eta: etaView(moved), arrival_window }) },
  ];
  const sameWindow =
    timeOf(row.arrival_window_start) === timeOf(moved.arrival_window_start) &&
    timeOf(row.arrival_window_end) === timeOf(moved.arrival_window_end);
  if (arrival_window && !sameWindow) {
    const data = { arrival_window, ...(previous_arrival_window ? { previous_arrival_window } : {}) };
    events.push({ type: "order.rescheduled", data: { ...data, rescheduled_by: "dispatch" } });
  }
  return events;
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
    ...assignmentColumns(plan, null), // the first assignment's latency stays
    ...keptPrice(row),
    updated_at: now,
    ...dispatchEta(match.responseMinutes, now, booking.arrival),
  };
  await trx("orders").where({ id }).update(update);
  const moved = { ...row, ...update };
  await openOffer(trx, moved, match.contractor.id, { now, respondBy: plan.respondBy });
  await writeOrderEvents(trx, moved, reassignedEvents(row, moved), { now, base });
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
  const update = { ...unassignedColumns, ...noEta };
  const note = "No contractor accepted the offer; back to the dispatcher.";
  const record = { note, human_override: false, final_cost_cents: null };
  await moveStatus(trx, row, { kind: "requeue", to: "accepted_pending_fulfilment", update, record, now, base });
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
  const keepWindowStart = row.arrival_window_start ? new Date(row.arrival_window_start).getTime() : null;
  const request = { exclude, keepWindowStart };
  try {
    // a hold is nobody left to offer the job to within its NTE: back to the queue
    const moved = await actOnOutcome(deps, row, request, (outcome) =>
      outcome.kind === "hold"
        ? Promise.resolve(null)
        : deps.db.transaction((trx) => moveOffer(trx, orderId, outcome.plan, base)),
    );
    if (moved !== null) return moved ? "reoffered" : "unchanged";
  } catch (error) {
    if (!isUnmatchable(error)) throw error;
  }
  return (await deps.db.transaction((trx) => returnToQueue(trx, orderId, base))) ? "queued" : "unchanged";
}
