// The one builder of order_events rows: an event is written once, complete, as its change left the order, so
// feed.ts's toEvent renders the stored row alone and no later change can alter an event already delivered.
import type { OrderRow } from "../../db/tables/dispatch.js";
import type { EventType } from "../../generated/events.js";
import type { FactData } from "./catalogue.js";

type Status = OrderRow["status"];

/** The order as the change leaves it: what each event of the change shows of it. */
export type OrderAsChanged = Pick<
  OrderRow,
  "id" | "account" | "environment" | "status" | "reference_id" | "contractor_id" | "quoted_cost_cents"
>;

/** One event of a change: its type, the status it carries (the order's when absent), and a fact's data. */
export interface EventWrite {
  type: EventType;
  status?: Status;
  data?: FactData | null;
  note?: string | null;
  human_override?: boolean;
  final_cost_cents?: number | null;
}

/** The rows of one change's events, in the order given; `previousStatus` is null for a new order. */
export function eventRowsOf(
  order: OrderAsChanged,
  events: EventWrite[],
  change: { at: Date; previousStatus: Status | null },
) {
  return events.map((event) => {
    const status = event.status ?? order.status;
    // an order waiting for a contractor shows none, and no price for one, whatever it kept from an earlier match
    const unassigned = status === "accepted_pending_fulfilment";
    return {
      order_id: order.id,
      type: event.type,
      status,
      previous_status: change.previousStatus,
      at: change.at,
      account: order.account,
      environment: order.environment,
      reference_id: order.reference_id ?? null,
      contractor_id: unassigned ? null : (order.contractor_id ?? null),
      quoted_cost_cents: unassigned ? null : (order.quoted_cost_cents ?? null),
      note: event.note ?? null,
      human_override: event.human_override ?? false,
      final_cost_cents: event.final_cost_cents ?? null,
      data: event.data ?? null,
    };
  });
}
