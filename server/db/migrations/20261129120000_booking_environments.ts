// Test and live keep separate seat ledgers: a booking carries its order's environment, and both UNIQUE indexes lead
// with it, so a test order never takes the seat a live order needs (the contractors are shared, their calendars in
// each environment are not). The environment is the order's by a foreign key on (order_id, environment), so no
// writer can book a test order into the live ledger. Existing bookings take their order's environment.
import type { Knex } from "knex";

const indexes = {
  contractor_bookings_window_seat: "contractor_id, window_start, seat",
  contractor_bookings_day_seat: "contractor_id, local_day, day_seat",
};

async function recreateIndexes(db: Knex, leading: string): Promise<void> {
  for (const [name, columns] of Object.entries(indexes)) {
    await db.raw(`drop index ${name}`);
    await db.raw(`create unique index ${name} on contractor_bookings (${leading}${columns})`);
  }
}

export async function up(db: Knex): Promise<void> {
  await db.raw("alter table orders add constraint orders_id_environment unique (id, environment)");
  await db.schema.alterTable("contractor_bookings", (t) => t.string("environment", 8));
  await db.raw("update contractor_bookings b set environment = o.environment from orders o where o.id = b.order_id");
  await db.raw(`alter table contractor_bookings
    alter column environment set not null,
    add constraint contractor_bookings_order_environment foreign key (order_id, environment)
      references orders (id, environment) on delete cascade`);
  await recreateIndexes(db, "environment, ");
}

/** One shared ledger again: a test booking holding a seat a live one holds too is dropped (live keeps its seat). */
export async function down(db: Knex): Promise<void> {
  await db.raw(`delete from contractor_bookings t where t.environment = 'test' and exists (
    select 1 from contractor_bookings l where l.environment = 'live' and l.contractor_id = t.contractor_id
      and ((l.window_start = t.window_start and l.seat = t.seat) or (l.local_day = t.local_day and l.day_seat = t.day_seat)))`);
  await recreateIndexes(db, "");
  await db.raw("alter table contractor_bookings drop constraint contractor_bookings_order_environment");
  await db.schema.alterTable("contractor_bookings", (t) => t.dropColumn("environment"));
  await db.raw("alter table orders drop constraint orders_id_environment");
}
