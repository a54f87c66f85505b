// The order's state machine: the one transition table the lifecycle (operators), cancelling (customers) and the
// sandbox (automatic steps) all follow.
import { contractEnums } from "../../../generated/contract.js";
import type { Schemas } from "../../../types/contract.js";

export type OrderLifecycleStatus = Schemas["OrderLifecycleStatus"];
/** Where an order can move to: every status but the first. */
export type TargetStatus = Exclude<OrderLifecycleStatus, "accepted_pending_fulfilment">;

/** The forward step from each status first, then cancelling; final statuses have none. */
const transitions: Partial<Record<OrderLifecycleStatus, readonly TargetStatus[]>> = {
  accepted_pending_fulfilment: ["pending_dispatch", "cancelled"],
  pending_dispatch: ["dispatched", "cancelled"],
  dispatched: ["en_route", "cancelled"],
  en_route: ["on_site", "cancelled"],
  on_site: ["completed", "cancelled"],
};

/** Once on site the customer can no longer cancel (operators still can). */
const customerCancellable: readonly OrderLifecycleStatus[] = [
  "accepted_pending_fulfilment",
  "pending_dispatch",
  "dispatched",
  "en_route",
];

export const allowedFrom = (status: OrderLifecycleStatus): readonly TargetStatus[] => transitions[status] ?? [];

export const customerMayCancel = (status: OrderLifecycleStatus): boolean => customerCancellable.includes(status);

/** The forward (non-cancelling) step from a status, or undefined for a final one. */
export const nextStep = (status: OrderLifecycleStatus): TargetStatus | undefined =>
  allowedFrom(status).find((to) => to !== "cancelled");

/** The statuses that have a forward step. */
export const advancingStatuses = contractEnums.OrderLifecycleStatus.filter((status) => nextStep(status));

/** Whether `target` lies ahead of `from` on the forward path. */
export function isAhead(from: OrderLifecycleStatus, target: OrderLifecycleStatus): boolean {
  for (let step = nextStep(from); step; step = nextStep(step)) if (step === target) return true;
  return false;
}
