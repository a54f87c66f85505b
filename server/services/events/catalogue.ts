// The event catalogue's rules (openapi.yaml `webhooks`), applied when an event is written: each status change is
// exactly one status event (order.created, order.status_changed, order.cancelled: the order's status history),
// and the facts of that change (order.assigned, order.completed …) follow it as events of their own, in the same
// transaction, so a receiver that knows only the status events sees what it always saw. The type is stored with
// the row (order_events.type), so the feed, the SSE stream, webhooks and deliveries read it instead of deriving it,
// and a later fact type is one more row type, not a new rule at read time.
import type { EventType } from "../../generated/events.js";
import type { Schemas } from "../../types/contract.js";
import type { FactData } from "../../db/tables/events.js";

export type { FactData } from "../../db/tables/events.js";

/** The types a status change is written as: one per change, in the order's status history (OrderStatus.events). */
export const statusEventTypes = [
  "order.created",
  "order.status_changed",
  "order.cancelled",
] as const satisfies readonly EventType[];
export type StatusEventType = (typeof statusEventTypes)[number];
/** Every other catalogue type is a fact: it follows the status event of the change it belongs to. */
export type FactType = Exclude<EventType, StatusEventType>;

export const isStatusEvent = (type: string): type is StatusEventType =>
  (statusEventTypes as readonly string[]).includes(type);

/** The status event of a change to `status` from `previousStatus` (null for a new order). */
export function eventTypeOf(status: string, previousStatus: string | null | undefined): StatusEventType {
  if (previousStatus === null || previousStatus === undefined) return "order.created";
  return status === "cancelled" ? "order.cancelled" : "order.status_changed";
}

export interface Fact {
  type: FactType;
  data: FactData | null;
}
/** What facts are read from: the order as a change found it and as it leaves it, its ETA as the contract shows
 * it (dispatch/orders/eta.ts etaView; null before a contractor is assigned). */
export interface OrderState {
  status: string;
  contractor_id: string | null;
  eta: Schemas["Eta"] | null;
}

/** The facts of one change, in the order they follow its status event; `before` is null for a new order. A
 * contractor that differs from the one before is an assignment (a re-assignment when there was one), carrying
 * the ETA it set; an ETA the change re-estimated (dispatch/orders/eta.ts) is order.eta_updated with the new one. */
export function factsOf(before: OrderState | null, after: OrderState): Fact[] {
  const facts: Fact[] = [];
  const previousContractor = before?.contractor_id ?? null;
  const { eta } = after;
  if (after.contractor_id !== null && after.contractor_id !== previousContractor)
    facts.push({ type: "order.assigned", data: { reassigned: previousContractor !== null, ...(eta ? { eta } : {}) } });
  // re-estimated: the order had an ETA before this change, and the change made a new estimate
  if (before?.eta && eta && eta.updated_at !== before.eta.updated_at)
    facts.push({ type: "order.eta_updated", data: { eta } });
  if (after.status === "completed" && before?.status !== "completed")
    facts.push({ type: "order.completed", data: null });
  return facts;
}

type EventData = Schemas["OrderEventData"];

/** The event data a type adds to the common fields, from its stored extras (the one reader of order_events.data). */
export function extrasOf(type: string, data: FactData | null): Partial<EventData> {
  if (type === "order.assigned")
    return { reassigned: data?.reassigned === true, ...(data?.eta ? { eta: data.eta } : {}) };
  if (type === "order.eta_updated" && data?.eta) return { eta: data.eta };
  if (type === "order.escalated" && data?.escalation) return { escalation: data.escalation };
  if (type === "order.rescheduled" && data?.arrival_window) {
    const { arrival_window, previous_arrival_window, rescheduled_by } = data;
    return {
      arrival_window,
      ...(previous_arrival_window ? { previous_arrival_window } : {}),
      ...(rescheduled_by ? { rescheduled_by } : {}),
    };
  }
  const revised = type === "order.price_revision_requested" || type === "order.price_revision_resolved";
  if (revised && data?.price_revision) return { price_revision: data.price_revision };
  return {};
}
