// A fetch wrapper that retries 429 and 503 answers (honouring Retry-After) and, where safe, network errors, with
// exponential backoff and an optional per-attempt timeout.
import { DispatchTimeoutError } from "./errors.js";

export interface RetryOptions {
  /** Retries after the first attempt (default 2; 0 disables). */
  retries?: number;
  /** First backoff in ms when the server sends no Retry-After (default 250). */
  baseDelayMs?: number;
  /** Upper bound for any single wait in ms (default 30 000). */
  maxDelayMs?: number;
}

const retryable = new Set([429, 503]);
const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/** How long a `Retry-After` value (seconds or an HTTP date) asks to wait, null when absent or unreadable. */
export function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** An answer worth asking again for (429, 503). */
export const isRetryableStatus = (status: number) => retryable.has(status);

/** A network failure may have reached the server: resend only reads and requests the server deduplicates by key. */
export function safeToResend(method: string, hasIdempotencyKey: boolean): boolean {
  return safeMethods.has(method.toUpperCase()) || hasIdempotencyKey;
}

async function attempt(inner: typeof fetch, request: Request, timeoutMs: number | undefined): Promise<Response> {
  if (!timeoutMs) return inner(request.clone());
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    return await inner(new Request(request.clone(), { signal: AbortSignal.any([request.signal, timeout]) }));
  } catch (err) {
    if (timeout.aborted && !request.signal.aborted)
      throw new DispatchTimeoutError(request.method, request.url, timeoutMs);
    throw err;
  }
}

/** The policy when a caller gives none. */
export const retryDefaults = { retries: 2, baseDelayMs: 250, maxDelayMs: 30_000 } as const satisfies RetryOptions;

export function withRetry(inner: typeof fetch, options: RetryOptions = {}, timeoutMs?: number): typeof fetch {
  const { retries, baseDelayMs, maxDelayMs } = { ...retryDefaults, ...options };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.min(maxDelayMs, ms)));
  return async (input, init) => {
    const request = new Request(input, init);
    for (let n = 0; ; n++) {
      let response: Response;
      try {
        response = await attempt(inner, request, timeoutMs);
      } catch (err) {
        if (
          n >= retries ||
          request.signal.aborted ||
          !safeToResend(request.method, request.headers.has("idempotency-key"))
        )
          throw err;
        await pause(baseDelayMs * 2 ** n);
        continue;
      }
      if (!retryable.has(response.status) || n >= retries) return response;
      const wait = retryAfterMs(response.headers.get("retry-after")) ?? baseDelayMs * 2 ** n;
      await response.body?.cancel();
      await pause(wait);
    }
  };
}
