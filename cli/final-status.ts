// Which order statuses are final (the order moves no more), for `orders watch` and the next-step hint. Keyed by the
// contract's OrderLifecycleStatus, so a status added to the contract fails to compile until it is decided here.
import type { components } from "../sdk/generated/openapi.js";

type OrderStatus = components["schemas"]["OrderLifecycleStatus"];

const final = {
  accepted_pending_fulfilment: false,
  pending_dispatch: false,
  dispatched: false,
  en_route: false,
  on_site: false,
  completed: true,
  cancelled: true,
} as const satisfies Record<OrderStatus, boolean>;

/** True for a final status; a status this CLI does not know yet (the enum is extensible) is not final. */
export const isFinalStatus = (status: string): boolean => Object.hasOwn(final, status) && final[status as OrderStatus];
