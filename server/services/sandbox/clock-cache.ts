// The sandbox clock a test key's request runs on (routes/tenant-clock.ts), cached per account and dropped on every
// instance through the change feed when the clock is written (docs/decisions.md#the-sandbox-modules).
import type { ChangeFeed } from "../../db/change-feed.js";
import type { Db } from "../../db/knex.js";
import type { Tenant } from "../access/principal.js";
import { createInvalidatedCache } from "../shared/cache.js";
import { frozenAt, onClockOf } from "../shared/test-clock.js";

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
    /** Runs a request's work on its tenant's clock (a frozen sandbox's instant for a test tenant). */
    onTenantClock: <T>(tenant: Tenant, work: () => Promise<T>): Promise<T> =>
      onClockOf(tenant, async (account) => (await clocks.get(account, () => load(account)))?.at ?? null, work),
    /** Tells every cache here that sandbox_clocks changed; call once the write committed. */
    changed: (): void => {
      feed?.announce("sandbox_clocks");
    },
  };
}

export type ClockCache = ReturnType<typeof createClockCache>;
