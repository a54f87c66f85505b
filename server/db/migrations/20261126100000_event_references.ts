// One event, one row: order_events rows are written with their order's tenant (no longer copied by the feed
// sequencer, so it is never missing), and an outbox message names the event it delivers by id instead of by its
// position among the order's messages. Its payload, a second rendering of the event, is no longer written; of it
// the message keeps the base URL its event's status_url is rendered with.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  // Rows written but not yet sequenced got their tenant from the sequencer until now.
  await db.raw(`
    update order_events e
       set account = o.account, environment = o.environment
      from orders o
     where o.id = e.order_id and (e.account is null or e.environment is null)`);
  await db.raw("alter table order_events alter column account set not null, alter column environment set not null");
  await db.schema.alterTable("webhook_outbox", (t) => {
    t.bigInteger("event_id").references("order_events.id").index("webhook_outbox_event_id_idx");
    t.text("status_base_url").notNullable().defaultTo("");
  });
  await db.raw(`
    update webhook_outbox
       set status_base_url = coalesce(substring(payload->'data'->>'status_url' from '^(.*)/api/dispatch/v1/orders/'), '')`);
  await db.raw("alter table webhook_outbox alter column status_base_url drop default");
  // Existing messages: an order's messages and events were written one for one in the same transactions, so the
  // order's nth message is its nth event (the rule deliveries used until now). A message with no event stays null.
  await db.raw(`
    update webhook_outbox w
       set event_id = e.id
      from (select id, row_number() over (partition by order_id order by id) as n from webhook_outbox) m,
           (select id, order_id, row_number() over (partition by order_id order by id) as n from order_events) e
     where m.id = w.id and e.order_id = w.order_id and e.n = m.n`);
  await db.raw("alter table webhook_outbox alter column payload drop not null");
}

export async function down(db: Knex): Promise<void> {
  // What the previous code read of a payload: the event's type (deliveries list) and its status_url's origin.
  await db.raw(`
    update webhook_outbox w
       set payload = jsonb_build_object(
             'type', case
               when not exists (select 1 from order_events p where p.order_id = e.order_id and p.id < e.id)
                 then 'order.created'
               when e.status = 'cancelled' then 'order.cancelled'
               else 'order.status_changed' end,
             'data', jsonb_build_object('status_url', w.status_base_url || '/api/dispatch/v1/orders/' || w.order_id))
      from order_events e
     where e.id = w.event_id and w.payload is null`);
  await db.raw("update webhook_outbox set payload = '{}' where payload is null");
  await db.raw("alter table webhook_outbox alter column payload set not null");
  await db.schema.alterTable("webhook_outbox", (t) => {
    t.dropIndex(["event_id"], "webhook_outbox_event_id_idx");
    t.dropForeign(["event_id"]);
    t.dropColumn("event_id");
    t.dropColumn("status_base_url");
  });
  await db.raw("alter table order_events alter column account drop not null, alter column environment drop not null");
}
