// Circuit breaker of webhook lanes: after `tripAfter` consecutive failures a lane is skipped for a cool-down that
// doubles per further failure; a lane is one tenant's endpoint (laneOf).
import { LRUCache } from "lru-cache";
import { exponentialBackoffMs } from "../shared/backoff.js";

/** Consecutive failures after which a lane's circuit opens. */
const tripAfter = 3;
/** Lanes remembered; past it the least recently failed are forgotten (their circuit closes), so memory is bounded. */
const maxLanes = 10_000;
const maxOpenMs = 3_600_000;

export interface Breaker {
  open(now: number): string[];
  record(lane: string, ok: boolean): void;
}

export function createBreaker(backoffMs: number): Breaker {
  const failures = new LRUCache<string, { count: number; openUntil: number }>({ max: maxLanes });
  return {
    open: (now) => [...failures.entries()].filter(([, f]) => f.openUntil > now).map(([lane]) => lane),
    record(lane, ok) {
      if (ok) return void failures.delete(lane);
      const count = (failures.get(lane)?.count ?? 0) + 1;
      const openUntil =
        count >= tripAfter ? Date.now() + exponentialBackoffMs(backoffMs, count - tripAfter, maxOpenMs) : 0;
      failures.set(lane, { count, openUntil });
    },
  };
}
