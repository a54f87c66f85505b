// The customer's side of the lifecycle: list their orders, cancel one (audited, evented, webhooked).
import type { Config } from "../../config.js";
import type { Db } from "../../db/knex.js";
import { applyEvent, orderNotFound } from "./order-lifecycle.js";
import { listOrders, type OrderListFilter } from "./order-list.js";
import type { OrderPrincipal } from "./orders.js";

export type CancelReason = "customer_request" | "duplicate" | "resolved_elsewhere" | "other";
export interface CancelInput {
  reason: CancelReason;
  note?: string;
}

const accountOf = (principal: OrderPrincipal) => (principal.kind === "key" ? principal.account : undefined);

export function createCustomerOrderService(db: Db, config: Config) {
  return {
    /** listOrders: only the key's account; credentials without an account own no orders. */
    async list(principal: OrderPrincipal, filter: OrderListFilter, origin: string) {
      const account = accountOf(principal);
      if (!account) return { items: [], next_cursor: null };
      return listOrders(db, account, filter, config.publicBaseUrl ?? origin);
    },

    /** cancelOrder: 404 for another account's order, 200 again when already cancelled, 409 once on site. */
    async cancel(principal: OrderPrincipal, id: string, input: CancelInput, origin: string) {
      const account = accountOf(principal);
      const row = account ? await db("orders").where({ id, account }).first("id") : undefined;
      if (!row) throw orderNotFound(id);
      const note = `${input.reason} (customer)${input.note ? `: ${input.note}` : ""}`;
      const cancellation = { reason: input.reason, note: input.note ?? null, by: "customer" as const };
      const base = config.publicBaseUrl ?? origin;
      return db.transaction((trx) => applyEvent(trx, id, { status: "cancelled", note, cancellation }, null, base));
    },
  };
}

export type CustomerOrderService = ReturnType<typeof createCustomerOrderService>;
