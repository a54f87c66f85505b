// Technicians' time (issue 42): a booking holds its technician (`seat`, 0..concurrent_jobs-1) from departure to the
// end of the expected work (`busy_from`, `busy_until`), and arrives at `arrival_at`. A trigger writes that interval
// as 15-minute UTC slots in technician_slots, in the statement that writes the booking, whoever writes it; the
// UNIQUE index refuses a technician's instant taken twice across instances (23505, as the seats). Why: decisions.md.
import type { Knex } from "knex";

const holdSlots = `
create or replace function technician_slots_hold() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    delete from technician_slots where order_id = old.order_id;
  end if;
  if tg_op <> 'DELETE' and new.seat is not null and new.busy_from is not null and new.busy_until > new.busy_from then
    insert into technician_slots (environment, contractor_id, technician, slot_start, order_id)
    select new.environment, new.contractor_id, new.seat, slot, new.order_id
      from generate_series(
        date_bin('15 minutes', new.busy_from, timestamptz '2000-01-01 00:00:00+00'),
        new.busy_until - interval '1 microsecond',
        interval '15 minutes') as slot;
  end if;
  return null;
end $$`;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("contractor_bookings", (t) => {
    t.timestamp("arrival_at", { useTz: true });
    t.timestamp("busy_from", { useTz: true });
    t.timestamp("busy_until", { useTz: true });
  });
  // Bookings made before: their technician held for the window itself, arriving at its start.
  await db.raw(`update contractor_bookings
    set arrival_at = window_start, busy_from = window_start, busy_until = window_end`);
  await db.raw(`alter table contractor_bookings
    add constraint contractor_bookings_busy_shape check (busy_until > busy_from)`);
  await db.schema.createTable("technician_slots", (t) => {
    t.string("environment", 8).notNullable();
    t.string("contractor_id", 40).notNullable();
    t.integer("technician").notNullable();
    t.timestamp("slot_start", { useTz: true }).notNullable();
    t.string("order_id", 40).notNullable().references("order_id").inTable("contractor_bookings").onDelete("cascade");
    t.index(["order_id"], "technician_slots_order_idx");
  });
  await db.raw(
    "create unique index technician_slots_taken on technician_slots (environment, contractor_id, technician, slot_start)",
  );
  // Existing bookings hold their slots; where two already overlap (windows of two zones), the first keeps them.
  await db.raw(`insert into technician_slots (environment, contractor_id, technician, slot_start, order_id)
    select b.environment, b.contractor_id, b.seat, slot, b.order_id
      from contractor_bookings b,
           generate_series(b.busy_from, b.busy_until - interval '1 microsecond', interval '15 minutes') as slot
     where b.seat is not null
     order by b.order_id
    on conflict do nothing`);
  await db.raw(holdSlots);
  await db.raw(
    "create trigger contractor_bookings_slots after insert or update or delete on contractor_bookings for each row execute function technician_slots_hold()",
  );
  // A technician may now arrive twice in one window: the window seat gives way to the slots.
  await db.raw("drop index contractor_bookings_window_seat");
}

export async function down(db: Knex): Promise<void> {
  await db.raw("drop trigger contractor_bookings_slots on contractor_bookings");
  await db.raw("drop function technician_slots_hold()");
  await db.schema.dropTable("technician_slots");
  // Two arrivals of one technician in one window: the later gives its window seat back (its day seat stays).
  await db.raw(`update contractor_bookings b set seat = null where exists (
    select 1 from contractor_bookings o where o.environment = b.environment and o.contractor_id = b.contractor_id
      and o.window_start = b.window_start and o.seat = b.seat and o.order_id < b.order_id)`);
  await db.raw(
    "create unique index contractor_bookings_window_seat on contractor_bookings (environment, contractor_id, window_start, seat)",
  );
  await db.raw("alter table contractor_bookings drop constraint contractor_bookings_busy_shape");
  await db.schema.alterTable("contractor_bookings", (t) => {
    t.dropColumn("arrival_at");
    t.dropColumn("busy_from");
    t.dropColumn("busy_until");
  });
}
