// The audit trail refuses UPDATE, DELETE and TRUNCATE. The one exception is the 7-year retention purge
// (audit_purge_expired), which first records the purged boundary's hash in audit_anchor so the oldest
// remaining record still verifies. Production: the application role must not own these tables or the
// purge function (an owner can drop triggers); grant it SELECT, INSERT only, and EXECUTE on the purge to
// the operator role that runs retention.
import type { Knex } from "knex";

const guard = `
create or replace function audit_records_guard() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' and current_setting('dispatch.audit_purge', true) = 'on' then
    if old.position <= (select coalesce(max(purged_through), 0) from audit_anchor) then
      return old;
    end if;
  end if;
  raise exception 'audit_records is append-only: % refused', tg_op using errcode = '42501';
end $$`;

const anchorGuard = `
create or replace function audit_anchor_guard() returns trigger language plpgsql as $$
begin
  raise exception 'audit_anchor is append-only: % refused', tg_op using errcode = '42501';
end $$`;

// Purges the longest prefix of the chain recorded before p_now - 7 years (724311 = the append lock).
const purge = `
create or replace function audit_purge_expired(p_now timestamptz) returns integer
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  v_cutoff timestamptz := p_now - interval '7 years';
  v_first_kept bigint;
  v_last bigint;
  v_hash varchar(64);
  v_count integer;
begin
  perform pg_advisory_xact_lock(724311);
  select min(position) into v_first_kept from audit_records where recorded_at >= v_cutoff;
  select position, substr(seal, 6) into v_last, v_hash from audit_records
    where v_first_kept is null or position < v_first_kept order by position desc limit 1;
  if v_last is null then
    return 0;
  end if;
  select count(*) into v_count from audit_records where position <= v_last;
  insert into audit_anchor (purged_through, boundary_hash, purged_count, cutoff) values (v_last, v_hash, v_count, v_cutoff);
  perform set_config('dispatch.audit_purge', 'on', true);
  delete from audit_records where position <= v_last;
  perform set_config('dispatch.audit_purge', 'off', true);
  return v_count;
end $$`;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("audit_anchor", (t) => {
    t.bigIncrements("id");
    t.bigInteger("purged_through").notNullable().unique();
    t.string("boundary_hash", 64).notNullable();
    t.integer("purged_count").notNullable();
    t.timestamp("cutoff", { useTz: true }).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.raw(guard);
  await db.raw(anchorGuard);
  await db.raw(purge);
  await db.raw(
    "create trigger audit_records_no_change before update or delete on audit_records for each row execute function audit_records_guard()",
  );
  await db.raw(
    "create trigger audit_records_no_truncate before truncate on audit_records for each statement execute function audit_records_guard()",
  );
  await db.raw(
    "create trigger audit_anchor_no_change before update or delete on audit_anchor for each row execute function audit_anchor_guard()",
  );
  await db.raw(
    "create trigger audit_anchor_no_truncate before truncate on audit_anchor for each statement execute function audit_anchor_guard()",
  );
  await db.raw("revoke update, delete, truncate on audit_records, audit_anchor from public");
  await db.raw("revoke execute on function audit_purge_expired(timestamptz) from public");
}

export async function down(db: Knex): Promise<void> {
  await db.raw("drop trigger if exists audit_records_no_change on audit_records");
  await db.raw("drop trigger if exists audit_records_no_truncate on audit_records");
  await db.raw("drop function if exists audit_purge_expired(timestamptz)");
  await db.raw("drop function if exists audit_records_guard()");
  await db.schema.dropTableIfExists("audit_anchor");
  await db.raw("drop function if exists audit_anchor_guard()");
}
