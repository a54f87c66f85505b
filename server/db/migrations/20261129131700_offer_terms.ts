// An offer keeps the terms it was made on: the price, arrival window and NTE its contractor was offered. A re-offer
// re-prices and re-books the order for the next contractor (and a revision the next one asks may raise the NTE), so
// the order's row no longer says what an earlier contractor saw; its offer does. Existing offers take their order's terms when they are the order's newest offer
// (what their contractor was offered, unless an operator moved it since); older ones keep none (null).
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("order_offers", (t) => {
    t.integer("quoted_cost_cents");
    t.integer("nte_cents");
    t.timestamp("arrival_window_start", { useTz: true });
    t.timestamp("arrival_window_end", { useTz: true });
  });
  await db.raw(`update order_offers f
     set quoted_cost_cents = o.quoted_cost_cents,
         nte_cents = o.nte_cents,
         arrival_window_start = o.arrival_window_start,
         arrival_window_end = o.arrival_window_end
    from orders o
   where o.id = f.order_id and o.contractor_id = f.contractor_id
     and not exists (select 1 from order_offers n where n.order_id = f.order_id
       and (n.created_at > f.created_at or (n.created_at = f.created_at and n.id > f.id)))`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable("order_offers", (t) => {
    t.dropColumn("quoted_cost_cents");
    t.dropColumn("nte_cents");
    t.dropColumn("arrival_window_start");
    t.dropColumn("arrival_window_end");
  });
}
