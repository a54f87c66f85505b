// The time the dispatch services read: `now()` (ms since the epoch) and `nowDate()`, the wall clock unless a
// process installed another source (installClock). A benchmark replays a simulated day through the real services
// by installing its own clock and moving it by simulated minutes; nothing else changes, so what it measures is the
// code that serves requests.
//
// Why a process-level seam is the layer a per-sandbox test clock sits on: the services read the time deep in their
// call paths (creation, the dispatcher's sweep, escalation, a lifecycle step, a reschedule), far from the tenant
// they act for. Threading a clock through every signature would touch every call site again and leave the next
// reader of `Date.now()` wrong; reading one function here keeps each call site a one-liner. A sandbox's test clock
// is then one more source installed here: it reads the tenant of the work at hand from the async context (set
// where a request or a background job's pass for one order begins) and answers that sandbox's time, the wall
// clock for everyone else. The seam stays; only the source behind it grows.
//
// That source is `withClock` below: the work for one sandbox account's test orders runs inside it with the
// account's frozen instant (services/sandbox/test-clock.ts), and every read here answers that instant; outside
// it (live work, a sandbox that was never frozen) the process's source answers as before.
//
// Business time only: deadlines, windows, created_at, escalation. The seat ledger's bookkeeping of which read saw
// which write (bookings.ts), caches' ages and id ordering stay on the wall clock: they order I/O, not the day.

import { AsyncLocalStorage } from "node:async_hooks";

/** A source of the current time, ms since the epoch. */
export interface Clock {
  now(): number;
}

const wallClock: Clock = { now: () => Date.now() };
let source: Clock = wallClock;
const scoped = new AsyncLocalStorage<Clock>();

/** The current time, ms since the epoch: the clock of the work at hand (withClock), else the process's. */
export const now = (): number => (scoped.getStore() ?? source).now();

/** The current time as a Date. */
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
