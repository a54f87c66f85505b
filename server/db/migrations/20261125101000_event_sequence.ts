// The event feed's order: `seq`, given to order_events rows after they commit (by the feed sequencer), so a
// write that fails after taking an id leaves no hole readers would wait on. Rows carry their order's tenant
// (account, environment) so a tenant's replay reads its own index range, not every tenant's events.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("order_events", (t) => {
    t.bigInteger("seq").unique({ indexName: "order_events_seq_unique" }); // null until sequenced
    t.string("account", 100);
    t.string("environment", 8);
    t.index(["account", "environment", "seq"], "order_events_tenant_seq_idx");
  });
  // The sequencer's work list: rows still waiting for a seq, oldest first.
  await db.raw("create index order_events_unsequenced_idx on order_events (id) where seq is null");
  // Existing rows keep their published ids (`evt_<id>` was the id until now): seq = id is in id order and
  // leaves every resume point a client holds valid; new rows continue above the largest.
  await db.raw(`
    update order_events e
       set seq = e.id, account = o.account, environment = o.environment
      from orders o
     where o.id = e.order_id`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw("drop index if exists order_events_unsequenced_idx");
  await db.schema.alterTable("order_events", (t) => {
    t.dropIndex(["account", "environment", "seq"], "order_events_tenant_seq_idx");
    t.dropUnique(["seq"], "order_events_seq_unique");
    t.dropColumn("environment");
    t.dropColumn("account");
    t.dropColumn("seq");
  });
}
