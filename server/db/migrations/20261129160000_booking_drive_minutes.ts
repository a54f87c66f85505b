// The drive each booking planned, in whole minutes: busy_from is floored to its 15-minute slot, so the drive cannot
// be read back from arrival_at less busy_from. Bounded in storage (0 to a day); null on bookings written before it
// was kept, which the evals do not count.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("contractor_bookings", (t) => {
    t.integer("drive_minutes");
  });
  await db.raw(`alter table contractor_bookings
    add constraint contractor_bookings_drive_minutes_range check (drive_minutes between 0 and 1440)`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw("alter table contractor_bookings drop constraint contractor_bookings_drive_minutes_range");
  await db.schema.alterTable("contractor_bookings", (t) => {
    t.dropColumn("drive_minutes");
  });
}
