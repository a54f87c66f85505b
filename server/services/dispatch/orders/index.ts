// The order aggregate: creating, reading, listing, cancelling, rescheduling and moving orders, and the sandbox that walks test
// orders (its clock, advancing by hand, reset), and the dispatcher that assigns unassigned orders once the pool can
// take them. One service over the one transition table (state.ts).
import type { Config } from "../../../config.js";
import type { ChangeFeed } from "../../../db/change-feed.js";
import type { Db } from "../../../db/knex.js";
import type { Tenant } from "../../access/principal.js";
import type { ContractorService } from "../contractors.js";
import { cancelOrder, type CancelInput } from "./cancel.js";
import { createOrder, type OrderContext, type OrderInput, type OrderPrincipal } from "./create.js";
import { createDispatcher } from "./dispatcher.js";
import { orderNotFound } from "./errors.js";
import { listOrders, type OrderListFilter } from "./list.js";
import { recordEvent } from "./record-event.js";
import { rescheduleOrder, type RescheduleInput } from "./reschedule.js";
import { advanceSandboxOrder, type SandboxStatus } from "./sandbox-advance.js";
import { startSandboxClock, stopSandboxClock, tick, type SandboxClock } from "./sandbox-clock.js";
import { advanceSandboxClock, getSandboxClock, type SandboxClockAdvance } from "./sandbox-clock-advance.js";
import { createClockCache, type ClockCache } from "./clock-cache.js";
import { resetSandbox } from "./sandbox-reset.js";
import type { OrderEventInput } from "./transition.js";
import { statusView } from "./view.js";
import { createOrderWriter } from "./writer.js";
import { createSeatLedger } from "../bookings.js";
import { createOfferService } from "../offers/index.js";
import { createJobService } from "../jobs/index.js";
import { createRevisionService } from "../revisions/index.js";
import type { Answering } from "../offers/answer.js";
import { baseUrlOf, configuredOrigin } from "../../shared/base-url.js";
import { consistentRead } from "../../../db/consistent-read.js";

export type { CancelInput, CancelReason } from "./cancel.js";
export type { OrderAnswer, OrderContext, OrderInput, OrderPrincipal } from "./create.js";
export type { OrderListFilter } from "./list.js";
export type { RescheduleInput } from "./reschedule.js";
export type { SandboxStatus } from "./sandbox-advance.js";
export type { SandboxReset } from "./sandbox-reset.js";
export type { SandboxClockAdvance, SandboxClockView } from "./sandbox-clock-advance.js";
export type { OrderEventInput } from "./transition.js";

/** getOrder: the tenant's own order with its history; other tenants' orders (the other environment's included)
 * are not found. */
async function getOrder(db: Db, tenant: Tenant | null, id: string, base: string) {
  if (!tenant) throw orderNotFound(id);
  return consistentRead(db, async (trx) => {
    const row = await trx("orders")
      .where({ id, ...tenant })
      .first();
    if (!row) throw orderNotFound(id);
    return statusView(trx, row, base);
  });
}

const isFinal = (status: string) => status === "completed" || status === "cancelled";

/** The sandbox clock and the dispatcher of one order service. */
function createWorkers(deps: Omit<SandboxClock, "job" | "base">) {
  const base = baseUrlOf(deps.config.publicBaseUrl, configuredOrigin(deps.config)); // until the server listens
  const clock: SandboxClock = { ...deps, job: null, base };
  const dispatcher = createDispatcher(deps, deps.config.dispatcherIntervalMs);
  return { clock, dispatcher };
}

/** The sandbox: an order advanced by hand, a reset, and the test clock: read, advanced (each stop running the
 * account's sweep and steps), and the clock a request of a test key runs on. */
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
    advanceSandbox: (tenant: Tenant, id: string, to: SandboxStatus | undefined) =>
      advanceSandboxOrder(clock, tenant, { id, to }),
    resetSandbox: (tenant: Tenant) => resetSandbox(db, tenant).finally(clocks.changed), // committed or not
    sandboxClock: (tenant: Tenant) => getSandboxClock(work, tenant),
    advanceSandboxClock: (tenant: Tenant, request: SandboxClockAdvance) => advanceSandboxClock(work, tenant, request),
    /** Runs a request's work on its tenant's clock (a frozen sandbox's instant for a test key), cached. */
    onTenantClock: clocks.onTenantClock,
  };
}

/** The customer's changes of an order: a cancel frees its seats and a reschedule its old window's, so each tells
 * the dispatcher to look again. */
function customerChanges(
  deps: { db: Db; contractors: ContractorService },
  written: { baseOf: (origin: string) => string; thenWritten: <T>(change: Promise<T>, frees: boolean) => Promise<T> },
) {
  const { db } = deps;
  const { baseOf, thenWritten } = written;
  return {
    cancel: (tenant: Tenant, id: string, input: CancelInput, origin: string) =>
      thenWritten(cancelOrder(db, tenant, id, input, baseOf(origin)), true),
    reschedule: (tenant: Tenant, id: string, input: RescheduleInput, origin: string) =>
      thenWritten(rescheduleOrder(deps, tenant, { id, input, base: baseOf(origin) }), true),
  };
}

/** The contractor side over the same seat ledger: offers and jobs, and its counterpart, price revisions of an
 * order's NTE (asked by its contractor, answered by the customer). Their changes tell the sequencer and clear this
 * instance's seat reads (a re-offer moved seats); a job's report may free seats and an approval may release a held
 * order, so both tell the dispatcher to look again. */
function contractorSide(deps: Answering, nudgeDispatcher: () => void) {
  const { db, config, eventsWritten, seats } = deps;
  const written = () => {
    eventsWritten();
    seats.changed();
  };
  return {
    /** Offers of jobs, listed and answered by contractor keys. */
    offers: createOfferService({ ...deps, eventsWritten: written }),
    /** The jobs contractors hold, reported on from the field. */
    jobs: createJobService({
      ...deps,
      eventsWritten: () => {
        written();
        nudgeDispatcher();
      },
    }),
    /** Price revisions of an order's NTE. */
    revisions: createRevisionService({ db, config, eventsWritten, released: nudgeDispatcher }),
  };
}

/** `eventsWritten` is told after order events are written (the feed sequencer's nudge); `changes` (the change feed)
 * keeps the request clocks' cache consistent across instances (none: no cache). */
export function createOrderService(
  db: Db,
  contractors: ContractorService,
  config: Config,
  eventsWritten: () => void = () => undefined,
  changes: ChangeFeed | null = null,
) {
  const seats = createSeatLedger(db); // this instance's claims: one ledger for every path that books
  const creation = { db, contractors, config, writer: createOrderWriter(db, eventsWritten), seats };
  const { clock, dispatcher } = createWorkers({ db, contractors, seats, config, eventsWritten });
  const baseOf = (origin: string) => baseUrlOf(config.publicBaseUrl, origin);
  /** Tells the sequencer; a cancelled or completed order frees its contractor, so the dispatcher looks again. */
  const thenWritten = <T>(change: Promise<T>, frees: boolean) =>
    change.finally(() => {
      eventsWritten();
      seats.changed(); // a cancel or completion freed seats
      if (frees) dispatcher.nudge();
    });
  return {
    create: (principal: OrderPrincipal, payload: OrderInput, ctx: OrderContext) =>
      createOrder(creation, principal, { payload, ctx }),
    get: (tenant: Tenant | null, id: string, origin: string) => getOrder(db, tenant, id, baseOf(origin)),
    /** listOrders: only the key's tenant (its account in its environment). */
    list: (tenant: Tenant, filter: OrderListFilter, origin: string) => listOrders(db, tenant, filter, baseOf(origin)),
    ...customerChanges({ db, contractors }, { baseOf, thenWritten }),
    /** An operator's status change; `base` is the admin request's own base URL. */
    recordEvent: (id: string, input: OrderEventInput, base: string) =>
      thenWritten(recordEvent(db, { contractors, seats, config }, { id, input, base }), isFinal(input.status)),
    ...sandboxOf({ db, config, clocks: createClockCache(db, changes) }, clock, dispatcher),
    /** The sandbox clock and the dispatcher, once the server listens (`origin`: its address, for status URLs). */
    startWorkers: (origin: string, onError: (job: "sandbox" | "dispatcher") => (error: unknown) => void) => {
      startSandboxClock(clock, baseOf(origin), onError("sandbox"));
      dispatcher.start(baseOf(origin), onError("dispatcher"));
    },
    stopWorkers: async () => {
      await stopSandboxClock(clock);
      await dispatcher.stop();
    },
    ...contractorSide({ db, contractors, seats, config, eventsWritten }, () => dispatcher.nudge()),
    /** The seat ledger (quotes read through it too). */
    seats,
    /** The pool changed (a contractor added or updated, here or on another instance). */
    nudgeDispatcher: () => dispatcher.nudge(),
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
