// The one writer of an order's assignment columns from the booking rule's plan, for every path that assigns
// (dispatch latency's definition: docs/decisions.md).
import type { Booking } from "../bookings.js";
import type { Match } from "../matching.js";

/** The contractor the booking rule picked for the job (bookings.ts) and the seats it books. */
export interface Plan {
  match: Match;
  booking: Booking;
}

/** When the order arrived and when it was first assigned, in ms on the clock that stamped its arrival. */
export interface Latency {
  arrivedAt: number;
  assignedAt: number;
}

/** The columns an assignment writes; `latency` only on the order's first assignment (a re-offer keeps it). */
export function assignmentColumns(plan: Plan, latency: Latency | null) {
  const { match, booking } = plan;
  return {
    contractor_id: match.contractor.id,
    quoted_cost_cents: match.costCents,
    estimated_response_minutes: match.responseMinutes,
    arrival_window_start: new Date(booking.window.start),
    arrival_window_end: new Date(booking.window.end),
    ...(latency ? { dispatch_latency_ms: Math.max(0, latency.assignedAt - latency.arrivedAt) } : {}),
  };
}

/** The columns of an order nobody is assigned to (its price, when it has one, stays). */
export const unassignedColumns = {
  contractor_id: null,
  estimated_response_minutes: null,
  arrival_window_start: null,
  arrival_window_end: null,
};
