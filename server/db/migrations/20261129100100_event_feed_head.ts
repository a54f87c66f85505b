// The feed head: the largest event seq ever given (services/events/sequencer.ts continues from it), kept apart from
// the events so that deleting them (a sandbox reset removes a test environment's) never lets an id, and so a
// webhook-id, be given again, nor leaves a stream's cursor above every new event. One row, from the largest seq
// the feed has now.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("event_feed_head", (t) => {
    t.boolean("singleton").primary().defaultTo(true);
    t.bigInteger("seq").notNullable();
  });
  await db.raw("alter table event_feed_head add constraint event_feed_head_one_row check (singleton)");
  await db.raw("insert into event_feed_head (seq) select coalesce(max(seq), 0) from order_events");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists("event_feed_head");
}
