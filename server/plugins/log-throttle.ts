// One log line per cause per window: the first occurrence is logged, repeats within `windowMs` are only counted,
// and the next line after the window carries that count (`suppressed`). An outage then writes a handful of
// lines instead of one per failed request. Hand-written: a few lines, and pino has no per-cause sampling.
export interface LogThrottle {
  /** null when this occurrence should not be logged; else how many were suppressed since the last line. */
  take(cause: string, now?: number): { suppressed: number } | null;
}

export function createLogThrottle(windowMs: number, maxCauses = 1000): LogThrottle {
  const causes = new Map<string, { loggedAt: number; suppressed: number }>();
  return {
    take(cause, now = Date.now()) {
      const seen = causes.get(cause);
      if (seen && now - seen.loggedAt < windowMs) {
        seen.suppressed++;
        return null;
      }
      if (!seen && causes.size >= maxCauses) causes.clear(); // bounded memory; worst case a few extra lines
      causes.set(cause, { loggedAt: now, suppressed: 0 });
      return { suppressed: seen?.suppressed ?? 0 };
    },
  };
}
