// The event catalogue's rules (openapi.yaml `webhooks`): each status change is one status event, its facts follow
// as events of their own in the same transaction, and the type is stored with the row (order_events.type).
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
/** What facts are read from, before and after a change: the order's status, contractor, ETA and booked window. */
export interface OrderState {
  status: string;
  contractor_id: string | null;
  eta: Schemas["Eta"] | null;
  arrival_window: Schemas["ArrivalWindow"] | null;
}

const sameEta = (one: Schemas["Eta"], other: Schemas["Eta"]) =>
  one.estimated_arrival_at === other.estimated_arrival_at &&
  one.source === other.source &&
  one.updated_at === other.updated_at;

/** order.assigned's extras: whether another contractor had the order, the estimate and the booked window. */
export function assignedData(reassigned: boolean, after: Pick<OrderState, "eta" | "arrival_window">): FactData {
  const { eta, arrival_window } = after;
  return { reassigned, ...(eta ? { eta } : {}), arrival_window };
}

/** A stored estimate as the contract shows it: one written before `eta_outside_window` was kept reads false. */
export const storedEta = (eta: Schemas["Eta"]): Schemas["Eta"] => ({
  ...eta,
  eta_outside_window: eta.eta_outside_window ?? false,
});

/** The booked window a stored fact carries, when it was written with one (null included). */
const windowOf = (data: FactData | null) =>
  data && "arrival_window" in data ? { arrival_window: data.arrival_window ?? null } : {};

/** The facts of one change, after its status event: a new contractor's order.assigned, a new ETA's eta_updated. */
export function factsOf(before: OrderState | null, after: OrderState): Fact[] {
  const facts: Fact[] = [];
  const previousContractor = before?.contractor_id ?? null;
  const { eta, arrival_window } = after;
  if (after.contractor_id !== null && after.contractor_id !== previousContractor)
    facts.push({ type: "order.assigned", data: assignedData(previousContractor !== null, after) });
  // re-estimated: the order had an ETA before this change and the change made a new estimate
  if (before?.eta && eta && !sameEta(before.eta, eta))
    facts.push({ type: "order.eta_updated", data: { eta, arrival_window } });
  if (after.status === "completed" && before?.status !== "completed")
    facts.push({ type: "order.completed", data: null });
  return facts;
}

type EventData = Schemas["OrderEventData"];

/** The event data a type adds to the common fields, from its stored extras (the one reader of order_events.data). */
export function extrasOf(type: string, data: FactData | null): Partial<EventData> {
  if (type === "order.assigned")
    return {
      reassigned: data?.reassigned === true,
      ...(data?.eta ? { eta: storedEta(data.eta) } : {}),
      ...windowOf(data),
    };
  if (type === "order.eta_updated" && data?.eta) return { eta: storedEta(data.eta), ...windowOf(data) };
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
