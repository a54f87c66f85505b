// Applies one status change under the row lock: the order, its status event and facts (events/catalogue.ts), a
// webhook per event, audit records, its seats (bookings.ts) and its pending price revision, in one transaction.
import type { Knex } from "knex";
import type { OrderRow, OrderUpdate } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import { matchFacts, type Match } from "../matching.js";
import type { EventWrite } from "./event-writes.js";
import { assignedData, factsOf } from "../../events/catalogue.js";
import { arrivalWindowOf } from "./arrival-window.js";
import { orderNotFound } from "./errors.js";
import { etaUpdateOf, etaView } from "./eta.js";
import { checkNte } from "./nte-rule.js";
import { assertCustomerCancellable, assertTransition, cancellationOf, type OrderEventInput } from "./transition.js";
import { moveStatus } from "./move-status.js";
import { isFinal } from "./state.js";
import { statusView } from "./view.js";
import { bookingRow } from "../bookings.js";
import { assignmentColumns, type Plan } from "./assignment.js";
import { nowDate } from "../../shared/clock.js";
import type { OfferedPlan } from "./assign.js";
import { openOffer, withdrawOpenOffer } from "./offer-records.js";
import { withdrawPendingRevision } from "./revision-records.js";

/** The match audit record of an assignment (before its status record). */
async function recordMatch(trx: Knex.Transaction, row: OrderRow, match: Match, humanOverride: boolean) {
  const tenant = { account: row.account, environment: row.environment };
  const content = { ...matchFacts(match), human_override: humanOverride };
  await appendAudit(trx, { type: "match", tenant, subject: row.id, content });
}

/** The row's new columns: status, cancellation, final cost, ETA (eta.ts), and the assignment when one was made. */
function updateOf(
  row: OrderRow,
  input: OrderEventInput,
  change: { match: Match | null; now: Date; booking: Plan["booking"] | null },
): OrderUpdate {
  const { now, match } = change;
  const arrival = change.booking?.arrival ?? null;
  const eta = etaUpdateOf(row, { input, responseMinutes: match?.responseMinutes ?? null, arrival, now });
  const update: OrderUpdate = { ...eta };
  if (input.final_cost_cents !== undefined) update.final_cost_cents = input.final_cost_cents;
  if (!match) return update;
  if (!change.booking) return update;
  // latency on the business clock that stamped the order's creation
  const latency = { arrivedAt: new Date(row.created_at).getTime(), assignedAt: now.getTime() };
  return { ...update, ...assignmentColumns({ match, booking: change.booking }, latency) };
}

/** The order's seats: booked with its assignment, freed (both) when cancelled, its window seat once completed. */
async function updateSeats(trx: Knex.Transaction, id: string, status: string, assignment: Plan | null) {
  if (assignment) await trx("contractor_bookings").insert(bookingRow(id, assignment.booking));
  if (status === "cancelled") await trx("contractor_bookings").where({ order_id: id }).delete();
  if (status === "completed") await trx("contractor_bookings").where({ order_id: id }).update({ seat: null });
}

/** Checks the event against the locked row; a repeated customer cancel answers the same view. */
function isRepeatedCancel(row: OrderRow, input: OrderEventInput): boolean {
  const byCustomer = input.cancellation?.by === "customer";
  if (byCustomer && row.status === "cancelled") return true;
  if (byCustomer) assertCustomerCancellable(row);
  assertTransition(row, input); // again under the row lock: another event may have moved the order meanwhile
  return false;
}

/** The facts that follow the status event, in feed order; an accepted offer adds `order.assigned`. */
function factsAfter(row: OrderRow, updated: OrderRow, finalCost: number | null, accepted: Accepted | null) {
  const after = { ...updated, eta: etaView(updated), arrival_window: arrivalWindowOf(updated) };
  const before = { ...row, eta: etaView(row), arrival_window: arrivalWindowOf(row) };
  const events: EventWrite[] = [
    // a fact carries the change's final cost (set when completing), not its note or override
    ...factsOf(before, after).map((fact) => ({
      type: fact.type,
      data: fact.data,
      final_cost_cents: finalCost,
    })),
    ...(accepted ? [{ type: "order.assigned" as const, data: assignedData(accepted.reassigned, after) }] : []),
  ];
  return events;
}

/** The contractor's accept of its offer (offers/answer.ts): whether another contractor held the order before. */
export interface Accepted {
  reassigned: boolean;
}

/** The status record's facts: going above the NTE is a person overriding the plan, whatever the flag says. */
const recordOf = (input: OrderEventInput, nteOverride: unknown) => ({
  note: input.note ?? null,
  human_override: (input.human_override ?? false) || nteOverride !== null,
  final_cost_cents: input.final_cost_cents ?? null,
});

/** Applies the change; an assignment opens the offer, and leaving pending_dispatch withdraws one still open. */
export async function applyEvent(
  trx: Knex.Transaction,
  id: string,
  input: OrderEventInput,
  assignment: OfferedPlan | null,
  base: string,
  accepted: Accepted | null = null,
) {
  const match = assignment?.match ?? null;
  const row = await trx("orders").where({ id }).forUpdate().first();
  if (!row) throw orderNotFound(id);
  if (isRepeatedCancel(row, input)) return statusView(trx, row, base);
  const nteOverride = checkNte(row, input, match); // under the lock: the row's NTE and price as they stand
  const now = nowDate();
  const cancellation = input.status === "cancelled" ? cancellationOf(input, now) : null;
  const update = updateOf(row, input, { booking: assignment?.booking ?? null, match, now });
  await updateSeats(trx, id, input.status, assignment);
  const offered = { ...row, ...update }; // the offer keeps the price and window booked for its contractor
  if (assignment)
    await openOffer(trx, offered, assignment.match.contractor.id, { now, respondBy: assignment.respondBy });
  if (row.status === "pending_dispatch" && input.status !== "pending_dispatch")
    await withdrawOpenOffer(trx, id, now, input.status);
  const record = recordOf(input, nteOverride);
  if (match) await recordMatch(trx, row, match, record.human_override);
  const updated = await moveStatus(trx, row, {
    kind: input.status === "cancelled" ? "cancel" : "step",
    to: input.status,
    update,
    record,
    cancellation,
    then: (moved) => factsAfter(row, moved, record.final_cost_cents, accepted),
    audit: nteOverride ? { nte_override: nteOverride } : {},
    now,
    base,
  });
  if (isFinal(updated.status))
    await withdrawPendingRevision(trx, updated, { orderEnded: updated.status }, { now, base });
  return statusView(trx, updated, base);
}
