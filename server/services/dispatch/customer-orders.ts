// The customer's side of the lifecycle: list their orders, cancel one (audited, evented, webhooked).
import type { Config } from "../../config.js";
import type { Db } from "../../db/knex.js";
import { applyEvent, orderNotFound } from "./order-lifecycle.js";
import { listOrders, type OrderListFilter } from "./order-list.js";
import type { Tenant } from "../access/principal.js";
import type { RequestBody } from "../../types/contract.js";

export type CancelInput = RequestBody<"cancelOrder">;
export type CancelReason = CancelInput["reason"];

export function createCustomerOrderService(db: Db, config: Config) {
  return {
    /** listOrders: only the key's tenant (its account in its environment). */
    listOrders: (tenant: Tenant, filter: OrderListFilter, origin: string) =>
      listOrders(db, tenant, filter, config.publicBaseUrl ?? origin),

    /** cancelOrder: 404 for another tenant's order, 200 again when already cancelled, 409 once on site. */
    async cancel(tenant: Tenant, id: string, input: CancelInput, origin: string) {
      const row = await db("orders")
        .where({ id, ...tenant })
        .first("id");
      if (!row) throw orderNotFound(id);
      const note = `${input.reason} (customer)${input.note ? `: ${input.note}` : ""}`;
      const cancellation = { reason: input.reason, note: input.note ?? null, by: "customer" as const };
      const base = config.publicBaseUrl ?? origin;
      return db.transaction((trx) => applyEvent(trx, id, { status: "cancelled", note, cancellation }, null, base));
    },
  };
}

export type CustomerOrderService = ReturnType<typeof createCustomerOrderService>;
