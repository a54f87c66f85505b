// The sandbox clock a request of a test key runs on (routes/tenant-clock.ts), cached per account: a hit answers
// without a query, so a test key's request costs what a live key's does. An entry is the account's frozen instant
// or "no row" (the wall clock: most sandboxes, and every key the benchmark issues); both are cached.
//
// Why a cached clock is not a stale one on two instances: it is invalidated the way API keys are (access/keys.ts,
// shared/cache.ts), through the change feed. Every write of sandbox_clocks (each stop of an advance, a reset's thaw)
// is announced in-process once it committed, so this instance's next request reads the new instant; the table's
// statement trigger (migration sandbox_clock_notices) sends a NOTIFY that Postgres delivers at commit to every
// other instance's LISTEN connection, which drops that instance's whole cache. A read that began before a change
// and answered after its notice is not stored (the cache's generation), so an old instant is never put back. While
// an instance's LISTEN connection is down the cache is bypassed (every request reads the row, as before), and the
// reconnect drops everything, since a notice may have been missed then. PGlite is one process: the in-process
// announcement is the whole feed. Redis plays no part, as it plays none for keys: one channel to keep consistent,
// not two. What remains is the notice's own flight: another instance may answer the previous instant for the time
// the NOTIFY takes to reach it after the commit (the window a revoked key has too), and a request that began in it
// is concurrent with the advance, so reading the row could as well have given the instant before it.
//
// Only requests read through here. The background passes and an advance's own steps read the row itself
// (test-clock.ts onTenantClock): they run once per order's step rather than per request, and an advance must see
// the instant it has just written even when another instance's advance of the account moved it on meanwhile.
import type { ChangeFeed } from "../../../db/change-feed.js";
import type { Db } from "../../../db/knex.js";
import type { Tenant } from "../../access/principal.js";
import { createInvalidatedCache } from "../../shared/cache.js";
import { frozenAt, onClockOf } from "./test-clock.js";

/** An account's clock as cached: its frozen instant (ms), or null for the wall clock. */
interface CachedClock {
  at: number | null;
}

/** Entries live 60 s at most, as keys do: a bound should a notice ever be lost on a live connection. */
const ttlMs = 60_000;

export function createClockCache(db: Db, feed: ChangeFeed | null) {
  const clocks = createInvalidatedCache<CachedClock>(feed, "sandbox_clocks", ttlMs);
  const load = async (account: string): Promise<CachedClock> => ({
    at: (await frozenAt(db, account))?.getTime() ?? null,
  });
  return {
    /** Runs a request's work on its tenant's clock: a frozen sandbox's instant for a test tenant, else the wall
     * clock (live tenants never read a clock). */
    onTenantClock: <T>(tenant: Tenant, work: () => Promise<T>): Promise<T> =>
      onClockOf(tenant, async (account) => (await clocks.get(account, () => load(account)))?.at ?? null, work),
    /** Tells every cache here that sandbox_clocks changed; call once the write committed (the trigger's notice
     * tells the other instances). */
    changed: (): void => {
      feed?.announce("sandbox_clocks");
    },
  };
}

export type ClockCache = ReturnType<typeof createClockCache>;
