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
// Business time only: deadlines, windows, created_at, escalation. The seat ledger's bookkeeping of which read saw
// which write (bookings.ts), caches' ages and id ordering stay on the wall clock: they order I/O, not the day.

/** A source of the current time, ms since the epoch. */
export interface Clock {
  now(): number;
}

const wallClock: Clock = { now: () => Date.now() };
let source: Clock = wallClock;

/** The current time, ms since the epoch. */
export const now = (): number => source.now();

/** The current time as a Date. */
export const nowDate = (): Date => new Date(source.now());

/** Installs another time source for this process; the returned function puts the previous one back. */
export function installClock(clock: Clock): () => void {
  const previous = source;
  source = clock;
  return () => {
    source = previous;
  };
}
