// The business time the services read: the wall clock, shifted by DISPATCH_TEST_NOW, or another installed source or
// withClock's (a frozen sandbox). Bookkeeping of I/O stays on Date.now().
import { AsyncLocalStorage } from "node:async_hooks";

export interface Clock {
  now(): number;
}

/** An RFC 3339 instant with its offset. */
export const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** DISPATCH_TEST_NOW's offset, the same for every process of one run (DISPATCH_TEST_NOW_SINCE). */
export function pinnedOffset(env: NodeJS.ProcessEnv = process.env, realNow = Date.now()): number {
  const pinned = env.DISPATCH_TEST_NOW;
  if (!pinned) return 0;
  const at = rfc3339.test(pinned) ? Date.parse(pinned) : NaN;
  if (Number.isNaN(at))
    throw new RangeError(
      `DISPATCH_TEST_NOW must be an RFC 3339 instant such as 2026-11-28T18:07:00-06:00, not ${pinned}`,
    );
  const since = Number(env.DISPATCH_TEST_NOW_SINCE);
  if (Number.isSafeInteger(since) && since > 0) return at - since;
  env.DISPATCH_TEST_NOW_SINCE = String(realNow);
  return at - realNow;
}

let offset: number | undefined; // read on first use, so a bad value fails in the config's check first
const wallClock: Clock = { now: () => Date.now() + (offset ??= pinnedOffset()) };
let source: Clock = wallClock;
const scoped = new AsyncLocalStorage<Clock>();

/** The current time, ms since the epoch: the clock of the work at hand (withClock), else the process's. */
export const now = (): number => (scoped.getStore() ?? source).now();

export const nowDate = (): Date => new Date(now());

/** Runs `work` (and everything it awaits) reading `clock`; work outside it is unaffected. */
export const withClock = <T>(clock: Clock, work: () => T): T => scoped.run(clock, work);

/** Installs another time source for this process; the returned function puts the previous one back. */
export function installClock(clock: Clock): () => void {
  const previous = source;
  source = clock;
  return () => {
    source = previous;
  };
}
