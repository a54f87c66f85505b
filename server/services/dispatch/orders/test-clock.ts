// A sandbox account's test clock: what "now" is for the account's test orders. No row in sandbox_clocks: the wall
// clock, so a sandbox nobody froze walks as it always did. A row: the clock is frozen at `frozen_at`, and only
// advanceSandboxClock moves it (sandbox-clock-advance.ts), forward only; resetSandbox removes the row (back to the
// wall clock). Live orders never read a row: every reader below answers the wall clock for environment live.
//
// Why an instant in the database, read where each piece of work for one account begins, rather than a cached offset:
// two instances sweeping the same Postgres must take the same step at the same clock reading, and a frozen clock
// must not creep while a request runs; a primary-key read per unit of work (one order's step in a sweep or an
// advance) is the price. Requests of test keys, which come far more often, read the same row through a cache that
// every write of it drops on every instance (clock-cache.ts: the change feed, as for API keys), so their clock
// costs no query and a moved one is dropped everywhere as its notice arrives. Work for one account runs inside
// `withClock` (shared/clock.ts), so the services' existing `now()` reads answer the account's instant without a
// clock threaded through their signatures. Set-wide reads that pick what is due across many accounts at once (the
// walker's due orders, due offers, overdue orders) compare each row with its own tenant's time in SQL (`tenantNow`),
// so one query serves every account; the background passes leave frozen sandboxes to their advances (`scopeOf`),
// which stop at each instant in turn.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { Tenant } from "../../access/principal.js";
import { nowDate, withClock } from "../../shared/clock.js";

type Reader = Db | Knex.Transaction;

/** The account's frozen instant, or null when its sandbox runs on the wall clock. */
export async function frozenAt(db: Reader, account: string): Promise<Date | null> {
  const row = await db("sandbox_clocks").where({ account }).first("frozen_at");
  return row ? new Date(row.frozen_at) : null;
}

/** The account's test time: its frozen instant, else the wall clock. */
export async function testTimeOf(db: Reader, account: string): Promise<Date> {
  return (await frozenAt(db, account)) ?? nowDate();
}

/** Runs `work` on the tenant's clock: a frozen sandbox's instant for a test tenant, the wall clock otherwise (and
 * for no tenant: a row the caller looked up and did not find, whose own 404 follows in `work`). */
export function onTenantClock<T>(db: Db, tenant: Tenant | undefined, work: () => Promise<T>): Promise<T> {
  return onClockOf(tenant, async (account) => (await frozenAt(db, account))?.getTime() ?? null, work);
}

/** onTenantClock with the account's frozen instant (ms; null: the wall clock) read by `frozenMs`: the row itself
 * here, a cache of it for requests (clock-cache.ts). */
export async function onClockOf<T>(
  tenant: Tenant | undefined,
  frozenMs: (account: string) => Promise<number | null>,
  work: () => Promise<T>,
): Promise<T> {
  if (tenant?.environment !== "test") return work();
  const at = await frozenMs(tenant.account);
  return at === null ? work() : withClock({ now: () => at }, work);
}

/** SQL for the business time of each row of `table` (which has `account` and `environment` columns): its account's
 * frozen instant for a test row, else `wall`. */
export const tenantNow = (db: Reader, table: string, wall: Date): Knex.Raw =>
  db.raw("coalesce((select c.frozen_at from sandbox_clocks c where c.account = ?? and ?? = 'test'), ?::timestamptz)", [
    `${table}.account`,
    `${table}.environment`,
    wall,
  ]);

/** Narrows a background pass (`account` undefined) to rows whose tenant is not a frozen sandbox: a frozen clock only
 * moves by an advance, which runs what falls due itself at each instant it stops at, so a background pass racing it
 * would take a step at an instant the walk has already left. An advance's own pass (`account` given) takes that
 * account's test rows. */
export function scopeOf(table: string, account: string | undefined) {
  return (query: Knex.QueryBuilder): void => {
    if (account) void query.where(`${table}.account`, account).where(`${table}.environment`, "test");
    else
      void query.whereRaw("not exists (select 1 from sandbox_clocks c where c.account = ?? and ?? = 'test')", [
        `${table}.account`,
        `${table}.environment`,
      ]);
  };
}

/** Freezes the account's clock at `at`, or moves it there; never back (of two advances at once, the later
 * instant stays). */
export async function freezeAt(db: Reader, account: string, at: Date): Promise<void> {
  await db("sandbox_clocks")
    .insert({ account, frozen_at: at, updated_at: new Date() })
    .onConflict("account")
    .merge({
      frozen_at: db.raw("greatest(sandbox_clocks.frozen_at, excluded.frozen_at)") as unknown as Date,
      updated_at: new Date(),
    });
}

/** Puts the account's sandbox back on the wall clock (resetSandbox). */
export async function thawClock(db: Reader, account: string): Promise<void> {
  await db("sandbox_clocks").where({ account }).delete();
}
