// Whether an event may move an order, by the one transition table; who may cancel, and the cancellation kept.
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { DomainError } from "../../errors.js";
import { invalidField } from "./errors.js";
import type { Cancellation, OrderEventInput } from "./event-input.js";
import { assertEtaInput } from "./eta.js";
import { assertOverrideShape } from "./nte-rule.js";
import { allowedFrom, customerMayCancel } from "./state.js";

export type { OrderLifecycleStatus } from "./state.js";
export type { Cancellation, OrderEventInput } from "./event-input.js";

export function assertTransition(row: Pick<OrderRow, "id" | "status">, input: OrderEventInput): void {
  const allowed = allowedFrom(row.status);
  if (!allowed.includes(input.status)) {
    throw new DomainError(
      "conflict",
      "invalid_transition",
      `Order ${row.id} is ${row.status}; it can move to ${allowed.join(" or ") || "nothing (final status)"}, not ${input.status}.`,
    );
  }
  if (input.status === "completed" && input.final_cost_cents === undefined)
    throw invalidField("/final_cost_cents", '"final_cost_cents" is required to complete an order.');
  if (input.contractor_id && row.status !== "accepted_pending_fulfilment")
    throw invalidField("/contractor_id", '"contractor_id" only applies when assigning an unassigned order.');
  assertOverrideShape(input);
  assertEtaInput(input);
}

export function assertCustomerCancellable(row: Pick<OrderRow, "id" | "status">): void {
  if (!customerMayCancel(row.status))
    throw new DomainError(
      "conflict",
      "cannot_cancel",
      `Order ${row.id} is ${row.status}; it can be cancelled only before the contractor is on site.`,
    );
}

export function cancellationOf(input: OrderEventInput, now: Date): Cancellation {
  const given = input.cancellation ?? {
    reason: "operator_decision",
    note: input.note ?? null,
    by: "operator" as const,
  };
  return { ...given, at: now.toISOString() };
}
