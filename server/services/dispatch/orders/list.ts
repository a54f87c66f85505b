// listOrders: a tenant's orders newest first, filtered, keyset-paged with an opaque cursor.
import type { Db } from "../../../db/knex.js";
import type { Tenant } from "../../access/principal.js";
import { newestFirst, pageOf } from "../../shared/keyset.js";
import type { ResponseBody, ValidQuery } from "../../../types/contract.js";
import { statusViews } from "./view.js";

export type OrderListFilter = ValidQuery<"listOrders">;

export async function listOrders(
  db: Db,
  tenant: Tenant,
  filter: OrderListFilter,
  base: string,
): Promise<ResponseBody<"listOrders", 200>> {
  const query = newestFirst(db("orders").where(tenant), filter);
  if (filter.status?.length) void query.whereIn("status", filter.status);
  if (filter.trade) void query.where({ trade: filter.trade });
  if (filter.reference_id) void query.where({ reference_id: filter.reference_id });
  if (filter.created_after) void query.where("created_at", ">=", new Date(filter.created_after));
  if (filter.created_before) void query.where("created_at", "<", new Date(filter.created_before));
  const { page, next_cursor } = pageOf(await query, filter.limit);
  return { items: await statusViews(db, page, base), next_cursor };
}
