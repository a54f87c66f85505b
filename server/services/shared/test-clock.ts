// A sandbox account's test clock as every service reads it: what "now" is for its test orders (no row: the wall
// clock; a row: frozen until advanced). Live orders always read the wall clock; the sandbox freezes and moves it
// (sandbox/clock-freeze.ts; docs/decisions.md#the-order-core-modules).
import type { Knex } from "knex";
import type { Db } from "../../db/knex.js";
import type { Tenant } from "./tenant.js";
import { withClock } from "./clock.js";

export type Reader = Db | Knex.Transaction;

/** The account's frozen instant, or null when its sandbox runs on the wall clock. */
export async function frozenAt(db: Reader, account: string): Promise<Date | null> {
  const row = await db("sandbox_clocks").where({ account }).first("frozen_at");
  return row ? new Date(row.frozen_at) : null;
}

/** Runs `work` on the tenant's clock: a frozen sandbox's instant for a test tenant, the wall clock otherwise. */
export function onTenantClock<T>(db: Db, tenant: Tenant | undefined, work: () => Promise<T>): Promise<T> {
  return onClockOf(tenant, async (account) => (await frozenAt(db, account))?.getTime() ?? null, work);
}

/** Runs `work` on the clock of order `id`'s tenant, looked up in the caller's `environment`. */
export async function onOrderClock<T>(
  db: Db,
  order: Pick<Tenant, "environment"> & { id: string },
  work: () => Promise<T>,
) {
  const tenant = await db("orders").where(order).first("account", "environment");
  return onTenantClock(db, tenant, work);
}

/** onTenantClock with the account's frozen instant read by `frozenMs` (the row, or clock-cache.ts for requests). */
export async function onClockOf<T>(
  tenant: Tenant | undefined,
  frozenMs: (account: string) => Promise<number | null>,
  work: () => Promise<T>,
): Promise<T> {
  if (tenant?.environment !== "test") return work();
  const at = await frozenMs(tenant.account);
  return at === null ? work() : withClock({ now: () => at }, work);
}

/** SQL for each row's business time: its account's frozen instant for a test row, else `wall`. */
export const tenantNow = (db: Reader, table: string, wall: Date): Knex.Raw =>
  db.raw("coalesce((select c.frozen_at from sandbox_clocks c where c.account = ?? and ?? = 'test'), ?::timestamptz)", [
    `${table}.account`,
    `${table}.environment`,
    wall,
  ]);

/** Narrows a background pass to rows not on a frozen sandbox clock (an advance runs what falls due itself). */
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
