// The rows of one table that belong to the evals window: joined to their order, live orders only (sandbox orders
// never count), created since the window's start. Every evals query starts here.
import type { Db } from "../../../db/knex.js";

type OrderChild = "order_events" | "order_offers" | "order_price_revisions" | "contractor_bookings";

export const ofWindowOrders = (db: Db, table: OrderChild, since: Date) =>
  db(table)
    .join("orders", "orders.id", `${table}.order_id`)
    .where("orders.environment", "live")
    .where("orders.created_at", ">=", since);
