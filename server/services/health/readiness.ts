// Readiness: whether the dependencies answer within a budget, so routes never run SQL; the database decides, a slow
// Redis is `degraded` (docs/decisions.md, a slow Redis is degraded, not unready).
import type { Db } from "../../db/knex.js";
import { DomainError } from "../errors.js";

/** How long one dependency may take to answer a readiness check. */
export const checkBudgetMs = 500;

type Check = () => Promise<unknown>;

/** Resolves true when `check` succeeds within the budget, false when it fails or is still running. */
async function answersInTime(check: Check): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      resolve(false);
    }, checkBudgetMs);
  });
  const done = check().then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createHealthService(db: Db) {
  let rateLimitStore: Check | null = null;
  return {
    /** Adds the shared rate-limit store's ping to the checks (a degraded store is reported, not fatal). */
    watchRateLimitStore(ping: Check): void {
      rateLimitStore = ping;
    },
    /** The checks by dependency; throws not_ready (503, Retry-After 5 s) when the database does not answer. */
    async assertReady(): Promise<Record<string, string>> {
      const [database, store] = await Promise.all([
        answersInTime(() => db.raw("select 1")),
        rateLimitStore ? answersInTime(rateLimitStore) : null,
      ]);
      if (!database)
        throw new DomainError(
          "unavailable",
          "not_ready",
          `The database did not answer within ${checkBudgetMs} ms (unreachable, or every connection is busy).`,
          { retryAfterSeconds: 5 },
        );
      return store === null ? { database: "ok" } : { database: "ok", rate_limit_store: store ? "ok" : "degraded" };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
