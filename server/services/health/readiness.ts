// Readiness: whether the service's dependencies answer, so routes never run SQL themselves.
import type { Db } from "../../db/knex.js";
import { DomainError } from "../errors.js";

export function createHealthService(db: Db) {
  return {
    /** Throws not_ready (503, Retry-After 5 s) when the database does not answer. */
    async assertReady(): Promise<void> {
      try {
        await db.raw("select 1");
      } catch {
        throw new DomainError("unavailable", "not_ready", "The database is unreachable.", { retryAfterSeconds: 5 });
      }
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
