// Order events carry their catalogue type: a status change writes its status event (order.created,
// order.status_changed, order.cancelled, the rule services/events/catalogue.ts applied at read time until now),
// and the facts of that change follow it as rows of their own (order.assigned, order.completed …) with their
// per-type extras in `data`, a JSON object of at most 4 KiB. Existing rows get the type the rule gives them.
// Down keeps only status events (the rule reads every row as one): fact rows and their webhook messages go.
import type { Knex } from "knex";

const statusTypes = ["order.created", "order.status_changed", "order.cancelled"];

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("order_events", (t) => {
    t.string("type", 40);
    t.jsonb("data");
  });
  await db.raw(`
    update order_events e
       set type = case
         when not exists (select 1 from order_events p where p.order_id = e.order_id and p.id < e.id)
           then 'order.created'
         when e.status = 'cancelled' then 'order.cancelled'
         else 'order.status_changed' end`);
  await db.raw("alter table order_events alter column type set not null");
  await db.raw(`alter table order_events add constraint order_events_data_shape
    check (data is null or (jsonb_typeof(data) = 'object' and octet_length(data::text) <= 4096))`);
}

export async function down(db: Knex): Promise<void> {
  const facts = db("order_events").whereNotIn("type", statusTypes).select("id");
  await db("webhook_outbox").whereIn("event_id", facts).delete();
  await db("order_events").whereNotIn("type", statusTypes).delete();
  await db.raw("alter table order_events drop constraint if exists order_events_data_shape");
  await db.schema.alterTable("order_events", (t) => {
    t.dropColumn("data");
    t.dropColumn("type");
  });
}
