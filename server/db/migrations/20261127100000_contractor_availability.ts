// Contractor availability: an IANA time zone, working hours per weekday in that zone, and a capacity (jobs at
// once, jobs a day), bounded in storage as in the contract. Contractors stored before it keep their behaviour:
// always working, the capacity bounds' maxima, and the principal zone of their first service area's state
// (docs/decisions.md, "Contractor availability in storage").
import type { Knex } from "knex";

const alwaysWorking = JSON.stringify(
  Object.fromEntries(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((day) => [
      day,
      [{ start: "00:00", end: "24:00" }],
    ]),
  ),
);

// The state table as of this migration (server/services/dispatch/state-zones.ts may change later; this must not).
const zones: Record<string, string[]> = {
  "America/New_York": "CT DE FL GA KY ME MD MA NH NJ NY NC OH PA RI SC VT VA WV DC".split(" "),
  "America/Chicago": "AL AR IL IA KS LA MN MS MO NE ND OK SD TN TX WI".split(" "),
  "America/Denver": "CO MT NM UT WY".split(" "),
  "America/Los_Angeles": "CA NV OR WA".split(" "),
  "America/Anchorage": ["AK"],
  "America/Phoenix": ["AZ"],
  "Pacific/Honolulu": ["HI"],
  "America/Boise": ["ID"],
  "America/Indiana/Indianapolis": ["IN"],
  "America/Detroit": ["MI"],
  "America/Puerto_Rico": ["PR"],
  "Pacific/Guam": ["GU"],
  "America/St_Thomas": ["VI"],
  "Pacific/Pago_Pago": ["AS"],
  "Pacific/Saipan": ["MP"],
};

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("contractors", (t) => {
    t.string("time_zone", 64);
    t.jsonb("working_hours").notNullable().defaultTo(alwaysWorking);
    t.integer("concurrent_jobs").notNullable().defaultTo(100);
    t.integer("jobs_per_day").notNullable().defaultTo(1000);
  });
  const pairs = Object.entries(zones).flatMap(([zone, states]) => states.map((state) => [state, zone]));
  await db.raw(
    `update contractors c
        set time_zone = coalesce(z.zone, 'America/New_York')
       from contractors x
       left join (values ${pairs.map(() => "(?, ?)").join(", ")}) as z(state, zone)
              on z.state = upper(x.service_areas->0->>'state')
      where x.id = c.id`,
    pairs.flat(),
  );
  await db.raw(`
    alter table contractors
      alter column time_zone set not null,
      add constraint contractors_concurrent_jobs_range check (concurrent_jobs between 1 and 100),
      add constraint contractors_jobs_per_day_range check (jobs_per_day between 1 and 1000),
      add constraint contractors_working_hours_shape
        check (jsonb_typeof(working_hours) = 'object' and octet_length(working_hours::text) <= 4096)`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    alter table contractors
      drop constraint contractors_concurrent_jobs_range,
      drop constraint contractors_jobs_per_day_range,
      drop constraint contractors_working_hours_shape`);
  await db.schema.alterTable("contractors", (t) => {
    t.dropColumn("time_zone");
    t.dropColumn("working_hours");
    t.dropColumn("concurrent_jobs");
    t.dropColumn("jobs_per_day");
  });
}
