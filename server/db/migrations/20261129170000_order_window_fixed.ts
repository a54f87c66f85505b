// Whether an order's window is the customer's or its contractor's choice (requested at creation, or moved by either):
// the dispatcher's re-planning moves only windows it chose itself (docs/decisions.md, "Re-planning").
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("orders", (t) => {
    t.boolean("window_fixed").notNullable().defaultTo(false);
  });
  // Orders moved before by their customer or contractor keep the window they chose.
  await db.raw(`update orders o set window_fixed = true where exists (
    select 1 from order_events e where e.order_id = o.id and e.type = 'order.rescheduled'
      and e.data->>'rescheduled_by' in ('customer', 'contractor'))`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable("orders", (t) => {
    t.dropColumn("window_fixed");
  });
}
