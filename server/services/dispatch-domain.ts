// The dispatch domain composed: the order core with its siblings beside it (offers, jobs, price revisions, the
// dispatcher, the sandbox), one seat ledger for every path that books. The only file that wires them together.
import type { Config } from "./../config.js";
import type { ChangeFeed } from "./../db/change-feed.js";
import type { Db } from "./../db/knex.js";
import type { Tenant } from "./access/principal.js";
import { baseUrlOf, configuredOrigin } from "./shared/base-url.js";
import { createSeatLedger } from "./dispatch/bookings.js";
import type { ContractorService } from "./dispatch/contractors.js";
import { createDispatcher } from "./dispatch/dispatcher/sweep.js";
import { createJobService } from "./dispatch/jobs/index.js";
import type { Answering } from "./dispatch/orders/reoffer.js";
import { createOfferService } from "./dispatch/offers/index.js";
import { createOrderService } from "./dispatch/orders/index.js";
import { createOrderFailures, type OrderFailure } from "./dispatch/orders/order-failures.js";
import { createRevisionService } from "./dispatch/revisions/index.js";
import { advanceSandboxOrder, type SandboxStatus } from "./sandbox/advance-order.js";
import { startSandboxClock, stopSandboxClock, tick, type SandboxClock } from "./sandbox/clock.js";
import { advanceSandboxClock, getSandboxClock, type SandboxClockAdvance } from "./sandbox/clock-advance.js";
import { createClockCache, type ClockCache } from "./sandbox/clock-cache.js";
import { resetSandbox } from "./sandbox/reset.js";

export type { SandboxStatus } from "./sandbox/advance-order.js";
export type { SandboxReset } from "./sandbox/reset.js";
export type { SandboxClockAdvance, SandboxClockView } from "./sandbox/clock-advance.js";

/** The sandbox clock and the dispatcher, started and stopped together, and the orders they skipped. */
function createWorkers(deps: Omit<SandboxClock, "job" | "base" | "failed">) {
  const base = baseUrlOf(deps.config.publicBaseUrl, configuredOrigin(deps.config)); // until the server listens
  const failures = createOrderFailures();
  const clock: SandboxClock = { ...deps, job: null, base, failed: failures.failed };
  const dispatcher = createDispatcher({ ...deps, failed: failures.failed }, deps.config.dispatcherIntervalMs);
  const baseOf = (origin: string) => baseUrlOf(deps.config.publicBaseUrl, origin);
  const workers = {
    /** Both, once the server listens (`origin`: its address, for status URLs). */
    start: (
      origin: string,
      onError: (job: "sandbox" | "dispatcher") => (error: unknown) => void,
      onOrderFailure: (failure: OrderFailure) => void,
    ) => {
      failures.reportTo(onOrderFailure);
      startSandboxClock(clock, baseOf(origin), onError("sandbox"));
      dispatcher.start(baseOf(origin), onError("dispatcher"));
    },
    stop: async () => {
      await stopSandboxClock(clock);
      await dispatcher.stop();
    },
    /** Orders the background passes skipped, by step and cause (the metrics scrape reads them). */
    failures: { counts: failures.counts },
  };
  return { clock, dispatcher, workers };
}

/** The sandbox: an order advanced by hand, a reset, the test clock read and advanced, and a request's clock. */
function sandboxOf(
  deps: { db: Db; config: Config; clocks: ClockCache },
  clock: SandboxClock,
  dispatcher: ReturnType<typeof createDispatcher>,
) {
  const { db, config, clocks } = deps;
  const work = {
    db,
    config,
    sweep: (account: string) => dispatcher.sweepAccount(account),
    step: (account: string) => tick(clock, account),
    clockMoved: clocks.changed,
  };
  return {
    advance: (tenant: Tenant, id: string, to: SandboxStatus | undefined) =>
      advanceSandboxOrder(clock, tenant, { id, to }),
    reset: (tenant: Tenant) => resetSandbox(db, tenant).finally(clocks.changed), // committed or not
    clock: (tenant: Tenant) => getSandboxClock(work, tenant),
    advanceClock: (tenant: Tenant, request: SandboxClockAdvance) => advanceSandboxClock(work, tenant, request),
    /** Runs a request's work on its tenant's clock (a frozen sandbox's instant for a test key), cached. */
    onTenantClock: clocks.onTenantClock,
  };
}

/** The contractor side over the same seat ledger; a report or an approval may free seats, so both nudge the dispatcher. */
function contractorSide(deps: Answering, nudgeDispatcher: () => void) {
  const { db, config, eventsWritten, seats } = deps;
  const written = () => {
    eventsWritten();
    seats.changed();
  };
  const reported = () => {
    written();
    nudgeDispatcher();
  };
  return {
    offers: createOfferService({ ...deps, eventsWritten: written }),
    jobs: createJobService({ ...deps, eventsWritten: reported }),
    revisions: createRevisionService({ db, config, eventsWritten, released: nudgeDispatcher }),
  };
}

/** `eventsWritten`: the feed sequencer's nudge; `changes`: the change feed that keeps request clocks consistent. */
export function createDispatchDomain(
  db: Db,
  contractors: ContractorService,
  config: Config,
  eventsWritten: () => void = () => undefined,
  changes: ChangeFeed | null = null,
) {
  const seats = createSeatLedger(db); // this instance's claims: one ledger for every path that books
  const { clock, dispatcher, workers } = createWorkers({ db, contractors, seats, config, eventsWritten });
  const nudge = () => dispatcher.nudge();
  return {
    orders: createOrderService({ db, contractors, config, seats, eventsWritten, freed: nudge }),
    ...contractorSide({ db, contractors, seats, config, eventsWritten }, nudge),
    sandbox: sandboxOf({ db, config, clocks: createClockCache(db, changes) }, clock, dispatcher),
    /** The dispatcher, told when the pool changed (a contractor added or updated, here or on another instance). */
    dispatcher: { nudge },
    workers,
    seats,
  };
}

export type DispatchDomain = ReturnType<typeof createDispatchDomain>;
