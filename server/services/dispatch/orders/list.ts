// listOrders: a tenant's orders newest first, filtered, keyset-paged with an opaque cursor; the page and its
// orders' histories read from one snapshot (db/consistent-read.ts).
import type { Db } from "../../../db/knex.js";
import type { Tenant } from "../../access/principal.js";
import { newestFirst, pageOf } from "../../shared/keyset.js";
import type { ResponseBody, ValidQuery } from "../../../types/contract.js";
import { statusViews } from "./view.js";
import { consistentRead } from "../../../db/consistent-read.js";

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
  return consistentRead(db, async (trx) => {
    const { page, next_cursor } = pageOf(await query.transacting(trx), filter.limit);
    return { items: await statusViews(trx, page, base), next_cursor };
  });
}
