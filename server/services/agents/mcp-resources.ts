// The key's orders as MCP resources (`dispatch://orders/{id}`): listOrders and getOrder under MCP's names, with their
// access and tenant, so another tenant's order is "not found" as an unknown id is.
import type { ListResourcesResult, ReadResourceResult, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import type { Services } from "../index.js";
import { DomainError } from "../errors.js";
import { accessOfOperation, assertMayCall } from "../access/operation-access.js";
import { tenantOfKey, type Caller } from "../access/principal.js";
import { notEntitledToOrder } from "../dispatch/entitlement.js";
import type { Schemas } from "../../types/contract.js";
import type { OrderListFilter } from "../dispatch/orders/index.js";
import { validators } from "../../generated/validators.js";
import { orderIdOfHandle } from "./tool-schemas.js";

const listQuery = validators.listOrders.query;

const scheme = "dispatch://orders/";
export const resourcePageSize = 50;

export const orderResourceTemplate: ResourceTemplate = {
  uriTemplate: `${scheme}{id}`,
  name: "order",
  title: "Order",
  description: "One of the key's orders (`ord_…`) as getOrder answers it: status, window, costs, events.",
  mimeType: "application/json",
};

/** The id an order URI names, by id or by the dispatch.order handle; null for any other URI. */
export function orderIdOf(uri: string): string | null {
  if (!uri.startsWith(scheme)) return null;
  let id: string;
  try {
    id = decodeURIComponent(uri.slice(scheme.length));
  } catch {
    return null; // a malformed escape (`%zz`) names no order
  }
  return /^[A-Za-z0-9_-]{1,100}$/.test(id) ? orderIdOfHandle(id) : null;
}

type Order = Pick<Schemas["OrderStatus"], "id" | "trade" | "status" | "location" | "updated_at">;
const resourceOf = (order: Order) => ({
  uri: `${scheme}${order.id}`,
  name: order.id,
  title: `${order.trade} order in ${order.location.state}: ${order.status}`,
  mimeType: "application/json",
  annotations: { lastModified: order.updated_at },
});

/** listOrders' query for one page: the cursor is checked by listOrders' generated validator (a bad one is -32602). */
function filterOf(cursor: string | undefined): OrderListFilter {
  const checked = listQuery.validate({ limit: resourcePageSize, ...(cursor === undefined ? {} : { cursor }) });
  if (checked.error)
    throw new DomainError("validation", "validation_failed", `Invalid cursor: ${checked.error.message}`);
  return checked.value as OrderListFilter; // joi has checked it against the schema OrderListFilter is read from
}

export interface ResourceContext {
  caller: Caller | null;
  origin: string;
}

export function createOrderResources(services: Pick<Services, "orders" | "config">) {
  const mayRead = (caller: Caller, operationId: "listOrders" | "getOrder") => {
    assertMayCall(caller, accessOfOperation(operationId)!, () =>
      notEntitledToOrder(caller, services.config.provisioningContact),
    );
  };

  return {
    async list(cursor: string | undefined, ctx: ResourceContext): Promise<ListResourcesResult> {
      if (!ctx.caller) return { resources: [] };
      mayRead(ctx.caller, "listOrders");
      const page = await services.orders.list(tenantOfKey(ctx.caller), filterOf(cursor), ctx.origin);
      return {
        resources: page.items.map(resourceOf),
        ...(page.next_cursor ? { nextCursor: page.next_cursor } : {}),
      };
    },

    /** Throws `not_found` for a URI that names no order of the caller's tenant. */
    async read(uri: string, ctx: ResourceContext): Promise<ReadResourceResult> {
      if (!ctx.caller)
        throw new DomainError(
          "unauthorized",
          "missing_credential",
          "Reading an order needs `Authorization: Bearer <API_KEY>`.",
        );
      mayRead(ctx.caller, "getOrder");
      const id = orderIdOf(uri);
      if (!id) throw new DomainError("not_found", "not_found", `No resource ${uri}.`);
      const order = await services.orders.get(tenantOfKey(ctx.caller), id, ctx.origin);
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(order) }] };
    },
  };
}

export type OrderResources = ReturnType<typeof createOrderResources>;
