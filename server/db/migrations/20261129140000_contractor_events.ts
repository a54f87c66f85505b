// The contractor feed's rows (listContractorEvents): each event of a contractor's own offers and jobs, written once
// in the transaction (or statement) of the change it tells, with only what that contractor may see then in `data`
// (a JSON object of at most 32 KiB: an offered job's description at its bound in four-byte characters fits). Append-only: a trigger refuses every change but the feed sequencer's one
// numbering of `seq` (null until then) and every delete, so a delivered event reads the same forever.
import type { Knex } from "knex";

const types = [
  "offer.created",
  "offer.withdrawn",
  "job.cancelled",
  "job.rescheduled",
  "job.eta_updated",
  "job.price_revision_resolved",
];

const guard = `
create or replace function contractor_events_guard() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    if old.seq is null and new.seq is not null and (to_jsonb(new) - 'seq') = (to_jsonb(old) - 'seq') then
      return new;
    end if;
  end if;
  raise exception 'contractor_events is append-only: % refused', tg_op using errcode = '42501';
end $$`;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("contractor_events", (t) => {
    t.bigIncrements("id");
    t.bigInteger("seq").unique({ indexName: "contractor_events_seq_unique" }); // null until sequenced
    t.string("contractor_id", 40).notNullable();
    t.string("environment", 4).notNullable();
    t.string("account", 100).notNullable(); // the order's tenant: kept for operators, never shown to the contractor
    t.string("order_id", 40).notNullable();
    t.string("offer_id", 40).notNullable();
    t.string("type", 40).notNullable();
    t.timestamp("at", { useTz: true }).notNullable();
    t.json("data").notNullable(); // json, not jsonb: kept as written, so the event's fields keep their order
    t.index(["contractor_id", "environment", "seq"], "contractor_events_feed_idx");
  });
  await db.raw(`alter table contractor_events
    add constraint contractor_events_type check (type in (${types.map((type) => `'${type}'`).join(", ")})),
    add constraint contractor_events_environment check (environment in ('live', 'test')),
    add constraint contractor_events_data_shape
      check (json_typeof(data) = 'object' and octet_length(data::text) <= 32768)`);
  await db.raw("create index contractor_events_unsequenced_idx on contractor_events (id) where seq is null");
  await db.raw(guard);
  await db.raw(
    "create trigger contractor_events_append_only before update or delete on contractor_events for each row execute function contractor_events_guard()",
  );
  await db.raw(
    "create trigger contractor_events_no_truncate before truncate on contractor_events for each statement execute function contractor_events_guard()",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists("contractor_events");
  await db.raw("drop function if exists contractor_events_guard()");
}
