// The one exponential backoff (background jobs, webhook retries, webhook circuit breaker): the base doubles per
// retry up to a cap. The exponent stops at 20, so a long outage never overflows to Infinity.

/** The wait before retry number `retry` (0 for the first): `baseMs` · 2^retry, at most `capMs`. */
export const exponentialBackoffMs = (baseMs: number, retry: number, capMs: number): number =>
  Math.min(capMs, baseMs * 2 ** Math.min(Math.max(retry, 0), 20));
