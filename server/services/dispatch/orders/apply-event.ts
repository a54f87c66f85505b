// Applies one status change under the row lock: the order, its status event and the facts that follow it
// (events/catalogue.ts), audit records and a webhook per event, in one transaction; with them the order's seats
// (bookings.ts): booked when it is assigned, freed when it ends (a cancelled order both seats, a completed job its
// window seat: the day's count keeps the job done).
import type { Knex } from "knex";
import type { OrderRow, OrderUpdate } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import { matchFacts, type Match } from "../matching.js";
import { enqueueEvents } from "./event-writes.js";
import { eventTypeOf, factsOf } from "../../events/catalogue.js";
import { orderNotFound } from "./errors.js";
import { etaUpdateOf, etaView } from "./eta.js";
import { checkNte, type NteOverride } from "./nte-rule.js";
import {
  assertCustomerCancellable,
  assertTransition,
  cancellationOf,
  type Cancellation,
  type OrderEventInput,
} from "./transition.js";
import { statusView } from "./view.js";
import { bookingRow } from "../bookings.js";
import type { Plan } from "./new-order.js";
import { nowDate } from "../../shared/clock.js";
import type { OfferedPlan } from "./assign.js";
import { openOffer, withdrawOpenOffer } from "../offers/records.js";

interface EventRecord {
  note: string | null;
  human_override: boolean;
  final_cost_cents: number | null;
}

interface StatusChange {
  row: OrderRow;
  updated: OrderRow;
  event: EventRecord;
  match: Match | null;
  cancellation: Cancellation | null;
  nteOverride: NteOverride | null;
}

/** The audit records and the webhooks of one status change (its events `eventIds`, in feed order), inside its
 * transaction. */
async function recordSideEffects(trx: Knex.Transaction, change: StatusChange, eventIds: number[], base: string) {
  const { row, updated, event, match, cancellation, nteOverride } = change;
  const tenant = { account: row.account, environment: row.environment };
  if (match)
    await appendAudit(trx, {
      type: "match",
      tenant,
      subject: row.id,
      content: { ...matchFacts(match), human_override: event.human_override },
    });
  await appendAudit(trx, {
    type: "order_status",
    tenant,
    subject: row.id,
    content: {
      from: row.status,
      to: updated.status,
      ...event,
      ...(cancellation ? { cancellation } : {}),
      ...(nteOverride ? { nte_override: nteOverride } : {}),
    },
  });
  await enqueueEvents(trx, row, eventIds, base);
}

/** The row's new columns: status, cancellation, final cost, the ETA when the change estimates one (eta.ts), and
 * the assignment when a match was made. */
function updateOf(
  row: OrderRow,
  input: OrderEventInput,
  change: Pick<StatusChange, "match" | "cancellation"> & { now: Date; booking: Plan["booking"] | null },
): OrderUpdate {
  const { now, match } = change;
  const windowStart = change.booking?.window.start ?? null;
  const eta = etaUpdateOf(row, { input, responseMinutes: match?.responseMinutes ?? null, windowStart, now });
  const update: OrderUpdate = { status: input.status, updated_at: now, ...eta };
  if (change.cancellation) update.cancellation = JSON.stringify(change.cancellation);
  if (input.final_cost_cents !== undefined) update.final_cost_cents = input.final_cost_cents;
  if (!match) return update;
  return {
    ...update,
    contractor_id: match.contractor.id,
    quoted_cost_cents: match.costCents,
    estimated_response_minutes: match.responseMinutes,
    dispatch_latency_ms: Math.max(0, now.getTime() - new Date(row.created_at).getTime()),
    ...(change.booking
      ? {
          arrival_window_start: new Date(change.booking.window.start),
          arrival_window_end: new Date(change.booking.window.end),
        }
      : {}),
  };
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

/** The change's status event, then its facts (ids in that order: the feed's order); their ids, ascending. An
 * accepted offer adds `order.assigned` for the contractor now holding the job. */
async function insertEvents(
  trx: Knex.Transaction,
  change: Pick<StatusChange, "row" | "updated" | "event"> & { now: Date; accepted: Accepted | null },
): Promise<number[]> {
  const { row, updated, event, now, accepted } = change;
  const common = { order_id: row.id, status: updated.status, at: now, account: row.account };
  const rows = [
    { ...common, ...event, type: eventTypeOf(updated.status, row.status), environment: row.environment },
    // a fact carries the change's final cost (set when completing), not its note or override
    ...factsOf({ ...row, eta: etaView(row) }, { ...updated, eta: etaView(updated) }).map((fact) => ({
      ...common,
      type: fact.type,
      data: fact.data === null ? null : JSON.stringify(fact.data),
      final_cost_cents: event.final_cost_cents,
      environment: row.environment,
    })),
    ...(accepted
      ? [
          {
            ...common,
            type: "order.assigned" as const,
            data: JSON.stringify({
              reassigned: accepted.reassigned,
              ...(etaView(updated) ? { eta: etaView(updated) } : {}),
            }),
            final_cost_cents: null,
            environment: row.environment,
          },
        ]
      : []),
  ];
  const written = await trx("order_events").insert(rows).returning("id");
  return written.map((w) => w.id).sort((a, b) => a - b);
}

/** The contractor's accept of its offer (offers/answer.ts): whether another contractor held the order before. */
export interface Accepted {
  reassigned: boolean;
}

/** Applies the change; an assignment opens the offer to its contractor, and leaving pending_dispatch withdraws an
 * offer still open (the contractor's accept closed its own before). */
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
  const update = updateOf(row, input, { booking: assignment?.booking ?? null, match, cancellation, now });
  await trx("orders").where({ id }).update(update);
  await updateSeats(trx, id, input.status, assignment);
  if (assignment) await openOffer(trx, row, assignment.match.contractor.id, { now, respondBy: assignment.respondBy });
  if (row.status === "pending_dispatch" && input.status !== "pending_dispatch") await withdrawOpenOffer(trx, id, now);
  const event = {
    note: input.note ?? null,
    // going above the NTE is a person overriding the plan, whatever the flag says
    human_override: (input.human_override ?? false) || nteOverride !== null,
    final_cost_cents: input.final_cost_cents ?? null,
  };
  const updated = { ...row, ...update, cancellation: cancellation ?? row.cancellation };
  const eventIds = await insertEvents(trx, { row, updated, event, now, accepted });
  await recordSideEffects(trx, { row, updated, event, match, cancellation, nteOverride }, eventIds, base);
  return statusView(trx, updated, base);
}
