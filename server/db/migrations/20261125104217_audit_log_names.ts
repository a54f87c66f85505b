// Names from the hash-chain design, renamed for the Merkle log: audit_records.prev_hash holds, for records sealed
// before the tree, the previous record's hash in that chain (null since), and audit_anchor holds each retention
// purge's boundary. The purge now takes the audit log's lock, the one the sequencer takes (724312), and keeps
// records the sequencer has not taken into the tree yet, so a purge never runs beside a batch or loses a leaf.
import type { Knex } from "knex";

const recordsGuard = (boundaries: string) => `
create or replace function audit_records_guard() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' and current_setting('dispatch.audit_purge', true) = 'on' then
    if old.position <= (select coalesce(max(purged_through), 0) from ${boundaries}) then
      return old;
    end if;
  end if;
  raise exception 'audit_records is append-only: % refused', tg_op using errcode = '42501';
end $$`;

const boundariesGuard = `
create or replace function audit_purge_boundaries_guard() returns trigger language plpgsql as $$
begin
  raise exception '% is append-only: % refused', tg_table_name, tg_op using errcode = '42501';
end $$`;

/** The purge: the longest prefix recorded before p_now - 7 years that the tree already holds. */
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
  perform pg_advisory_xact_lock(724312);
  select min(position) into v_first_kept from (
    select position from audit_records where recorded_at >= v_cutoff
    union all select position from audit_pending
  ) kept;
  select position, substr(seal, 6) into v_last, v_hash from audit_records
    where v_first_kept is null or position < v_first_kept order by position desc limit 1;
  if v_last is null then
    return 0;
  end if;
  select count(*) into v_count from audit_records where position <= v_last;
  insert into audit_purge_boundaries (purged_through, boundary_hash, purged_count, cutoff)
    values (v_last, v_hash, v_count, v_cutoff);
  perform set_config('dispatch.audit_purge', 'on', true);
  delete from audit_records where position <= v_last;
  perform set_config('dispatch.audit_purge', 'off', true);
  return v_count;
end $$`;

/** The purge as 20261123102000_audit_immutable created it, for down(). */
const previousPurge = `
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

const renames = [
  ["table", "audit_anchor", "audit_purge_boundaries"],
  ["sequence", "audit_anchor_id_seq", "audit_purge_boundaries_id_seq"],
  ["index", "audit_anchor_pkey", "audit_purge_boundaries_pkey"],
  ["index", "audit_anchor_purged_through_unique", "audit_purge_boundaries_purged_through_unique"],
  ["trigger", "audit_anchor_no_change", "audit_purge_boundaries_no_change"],
  ["trigger", "audit_anchor_no_truncate", "audit_purge_boundaries_no_truncate"],
  ["function", "audit_anchor_guard()", "audit_purge_boundaries_guard()"],
] as const;

async function rename(db: Knex, forward: boolean): Promise<void> {
  const steps = forward ? renames : [...renames].reverse();
  for (const [kind, older, newer] of steps) {
    const [from, to] = forward ? [older, newer] : [newer, older];
    const table = forward ? "audit_purge_boundaries" : "audit_anchor";
    if (kind === "trigger") await db.raw(`alter trigger ${from} on ${table} rename to ${to}`);
    else await db.raw(`alter ${kind} ${from} rename to ${to.replace("()", "")}`);
  }
}

export async function up(db: Knex): Promise<void> {
  await db.raw("alter table audit_records rename column prev_hash to pre_tree_previous_hash");
  await db.raw(
    "comment on column audit_records.pre_tree_previous_hash is " +
      "'For records sealed before the Merkle tree: the previous record''s hash in that design''s chain; null since.'",
  );
  await rename(db, true);
  await db.raw(boundariesGuard);
  await db.raw(recordsGuard("audit_purge_boundaries"));
  await db.raw(purge);
}

export async function down(db: Knex): Promise<void> {
  await rename(db, false);
  await db.raw(recordsGuard("audit_anchor"));
  await db.raw(previousPurge);
  await db.raw("alter table audit_records rename column pre_tree_previous_hash to prev_hash");
}
