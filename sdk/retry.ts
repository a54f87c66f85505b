// A fetch wrapper that retries 429 and 503 answers, honouring Retry-After, with exponential backoff.

export interface RetryOptions {
  /** Retries after the first attempt (default 2; 0 disables). */
  retries?: number;
  /** First backoff in ms when the server sends no Retry-After (default 250). */
  baseDelayMs?: number;
  /** Upper bound for any single wait in ms (default 30 000). */
  maxDelayMs?: number;
}

const retryable = new Set([429, 503]);

function retryAfterMs(response: Response): number | null {
  const value = response.headers.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

export function withRetry(inner: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const { retries = 2, baseDelayMs = 250, maxDelayMs = 30_000 } = options;
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await inner(request.clone());
      if (!retryable.has(response.status) || attempt >= retries) return response;
      const wait = Math.min(maxDelayMs, retryAfterMs(response) ?? baseDelayMs * 2 ** attempt);
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
}
