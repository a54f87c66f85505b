// Capacity-aware booking (issue 33, items 2 and 3): an assigned order holds a seat in its contractor's arrival
// window (seats 0..concurrent_jobs-1) and a seat in the contractor's local day (0..jobs_per_day-1). The two UNIQUE
// indexes are what make the capacity hold across instances: two writers that pick the same free seat from the same
// read cannot both commit (23505; the loser re-reads and picks again). A completed job frees its window seat
// (`seat` null) but keeps its day seat; a cancelled order's booking is deleted. The order keeps the window it booked.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("contractor_bookings", (t) => {
    t.string("order_id", 40).primary().references("id").inTable("orders").onDelete("cascade");
    t.string("contractor_id", 40).notNullable();
    t.timestamp("window_start", { useTz: true }).notNullable();
    t.timestamp("window_end", { useTz: true }).notNullable();
    t.integer("seat");
    t.date("local_day").notNullable();
    t.integer("day_seat").notNullable();
  });
  await db.raw(`alter table contractor_bookings
    add constraint contractor_bookings_window_shape check (window_end > window_start),
    add constraint contractor_bookings_seat_range check (seat is null or seat between 0 and 99),
    add constraint contractor_bookings_day_seat_range check (day_seat between 0 and 999)`);
  await db.raw(
    "create unique index contractor_bookings_window_seat on contractor_bookings (contractor_id, window_start, seat)",
  );
  await db.raw(
    "create unique index contractor_bookings_day_seat on contractor_bookings (contractor_id, local_day, day_seat)",
  );
  await db.schema.alterTable("orders", (t) => {
    t.timestamp("arrival_window_start", { useTz: true });
    t.timestamp("arrival_window_end", { useTz: true });
  });
  await db.raw(`alter table orders add constraint orders_arrival_window_whole check (
    (arrival_window_start is null and arrival_window_end is null)
    or (arrival_window_start is not null and arrival_window_end > arrival_window_start))`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw("alter table orders drop constraint if exists orders_arrival_window_whole");
  await db.schema.alterTable("orders", (t) => {
    t.dropColumn("arrival_window_end");
    t.dropColumn("arrival_window_start");
  });
  await db.schema.dropTable("contractor_bookings");
}
