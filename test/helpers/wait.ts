// Waiting in tests: one `sleep` for the pauses that are the point of a test (an interval that must pass quietly, a
// clock that must move) and one `until` for everything else, which waits on the condition itself rather than on a
// guess at how long it takes, so a test is as fast as the code under it and fails with a message when it never holds.

export interface UntilOptions {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Time between checks (default 25 ms). */
  intervalMs?: number;
  /** What was being waited for, in the error thrown on timeout (a function: read when the wait fails). */
  message?: string | (() => string);
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** Polls `check` until it returns a value other than undefined and returns it; throws after `timeoutMs`. */
export async function untilValue<T>(
  check: () => T | undefined | Promise<T | undefined>,
  { timeoutMs = 15_000, intervalMs = 25, message = "condition" }: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const what = typeof message === "string" ? message : message();
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await sleep(intervalMs);
  }
}

/** Polls `check` until it returns true; throws after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, options: UntilOptions = {}): Promise<void> {
  await untilValue(async () => ((await check()) ? true : undefined), options);
}
