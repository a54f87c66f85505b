// Which catalogue event (openapi.yaml `webhooks`) a status change is: the one rule the feed, the SSE stream and
// the webhook outbox all apply, so a receiver sees the same type whichever path delivered the event.
import type { EventType } from "../../generated/events.js";

export function eventTypeOf(status: string, previousStatus: string | null | undefined): EventType {
  if (previousStatus === null || previousStatus === undefined) return "order.created";
  return status === "cancelled" ? "order.cancelled" : "order.status_changed";
}
