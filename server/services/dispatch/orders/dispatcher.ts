// The dispatcher: orders accepted without a contractor (202, `accepted_pending_fulfilment`) get one as soon as the
// pool can take them, in both environments alike (the sandbox follows the live rule: nothing assigns a contractor
// that does not exist). A run sweeps every such order, oldest first, in pages, and assigns each the match an
// operator's assignment would make (assign.ts: the same pool, ranking and booking rule, bookings.ts, the seat booked
// in the assignment's transaction, so it never assigns into a full window); the step
// goes through the one NTE rule, so an order whose match is priced over its not-to-exceed is never assigned here: it
// is held at that price, as createOrder holds one (isHeldOverNte), and later sweeps leave it alone. A job nobody can
// take (no contractor, or all fully booked) is asked about once per sweep, not once per waiting order.
//
// When it runs: after a change to the pool (a contractor added, raised or re-activated on any instance: the change
// feed's `contractors` notice, which Postgres triggers send to every instance), after an order on this instance
// ends (cancelled or completed: a contractor may have capacity again), and otherwise every
// DISPATCHER_INTERVAL_MS (what another instance freed, a contractor's working hours starting). A whole sweep rather
// than a queue of "orders to retry": what makes an order matchable is a change to the pool, which concerns any
// unassigned order, and the sweep reads only unassigned orders through their status index, a page at a time.
//
// Every assignment is an offer to the contractor (offers/): a sweep first expires the offers past their deadline and
// re-offers their jobs (offers/sweep.ts), and never assigns an order to a contractor that already had an offer of it.
//
// After the assignments, the sweep escalates every order still unassigned past its urgency's fulfilment deadline
// (escalation.ts: once per order, an `order.escalated` event, with the reason its job found nobody this sweep), so an
// overdue order is escalated within one interval.
//
// A sandbox account's test orders are swept on its clock (test-clock.ts): each order's work runs on its tenant's
// time, and what is due is due by that time, so a frozen sandbox escalates and expires nothing until it is advanced.
// An advance sweeps that account alone (`account`), at each instant it stops at (sandbox-clock-advance.ts).
//
// Several instances may sweep at once: the assignment locks the order's row and re-checks its status under the lock
// (applyEvent), so the second instance to reach an order finds it assigned and moves on (409, ignored): at most one
// assignment per order, and no order is skipped, since every sweep reads every unassigned order.
import type { Db } from "../../../db/knex.js";
import type { Config } from "../../../config.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { startBackgroundJob, type BackgroundJob } from "../../../background-job.js";
import { DomainError } from "../../errors.js";
import type { ContractorService } from "../contractors.js";
import type { Match } from "../matching.js";
import { applyEvent } from "./apply-event.js";
import { assignWithSeats } from "./assign.js";
import type { SeatLedger } from "../bookings.js";
import { escalate, overdueOrders, type WaitingReason } from "./escalation.js";
import { heldOverNte, isOverNteError } from "./nte-rule.js";
import { nowDate } from "../../shared/clock.js";
import { sweepOffers } from "../offers/sweep.js";
import { onTenantClock } from "./test-clock.js";
import { openHeldRevision } from "../revisions/records.js";

export interface Dispatcher {
  db: Db;
  contractors: ContractorService;
  seats: SeatLedger;
  config: Config;
  /** Told after each assignment is written (the feed sequencer's nudge). */
  eventsWritten: () => void;
  /** The server's own base URL once it listens (status URLs in events and webhooks). */
  base: string;
  job: BackgroundJob | null;
}

/** Orders read per page of a sweep. */
const pageSize = 100;

/** What a sweep reads of a waiting order: its key and its job (the assignment reads the rest under its lock). Not
 * the stored answer and the rest of the row: a backlog of thousands of waiting orders is read on every sweep. */
const waitingColumns = [
  "id",
  "account",
  "environment",
  "created_at",
  "trade",
  "state",
  "location",
  "urgency",
  "nte_cents",
] as const;
/** With the contractors that already had an offer of the order (comma-separated; null: none), not offered again. */
type WaitingRow = Pick<OrderRow, (typeof waitingColumns)[number]> & { offered_to: string | null };

/** One page of unassigned orders after `after` (created_at, id), oldest first; held orders are left alone. */
function unassignedPage(db: Db, after: Pick<OrderRow, "created_at" | "id"> | null, account?: string) {
  const query = db("orders")
    .where("orders.status", "accepted_pending_fulfilment")
    .modify((scoped) => {
      if (account) void scoped.where("orders.account", account).where("orders.environment", "test");
    })
    .whereNot(heldOverNte)
    .orderBy([
      { column: "orders.created_at", order: "asc" },
      { column: "orders.id", order: "asc" },
    ])
    .limit(pageSize)
    .select<WaitingRow[]>([
      ...waitingColumns.map((column) => `orders.${column}`),
      db.raw("(select string_agg(contractor_id, ',') from order_offers where order_id = orders.id) as offered_to"),
    ]);
  if (after) void query.whereRaw('("orders"."created_at", "orders"."id") > (?, ?)', [after.created_at, after.id]);
  return query;
}

/** Expected outcomes of one order's attempt: nobody can take it yet, or another instance (or an operator, or
 * the customer's cancel) moved it first. Anything else is a failure of the run. */
const isSettledElsewhere = (error: unknown) => error instanceof DomainError && error.code === "invalid_transition";

/** Nobody serves the job, or everyone who does is fully booked: the same for every order of its trade, state and
 * urgency until the pool or its load changes, so one sweep asks once per such job; its escalations say which. */
function unmatchableReason(error: unknown): WaitingReason | null {
  if (!(error instanceof DomainError)) return null;
  if (error.code === "no_contractor_in_area") return "no_contractor_in_area";
  return error.code === "no_window_available" ? "no_window_available" : null;
}
const jobKey = (row: Pick<OrderRow, "trade" | "state" | "urgency">) => `${row.trade}|${row.state}|${row.urgency}`;

/** An order whose match is priced over its NTE keeps that price and is held, as createOrder holds one priced over
 * its NTE, with the pending price revision the customer approves to release it (revisions/records.ts): later
 * sweeps leave it alone (isHeldOverNte) rather than retrying it each time. */
async function holdAtPrice(dispatcher: Dispatcher, row: Pick<OrderRow, "id">, match: Match): Promise<void> {
  const now = nowDate();
  const held = await dispatcher.db.transaction(async (trx) => {
    const [priced] = await trx("orders")
      .where({ id: row.id, status: "accepted_pending_fulfilment" })
      .whereNull("quoted_cost_cents")
      .whereNotNull("nte_cents")
      .update({ quoted_cost_cents: match.costCents, updated_at: now })
      .returning("*");
    if (priced)
      await openHeldRevision(
        trx,
        { ...priced, nte_cents: priced.nte_cents!, quoted_cost_cents: match.costCents },
        { now, base: dispatcher.base },
      );
    return Boolean(priced);
  });
  if (held) dispatcher.eventsWritten();
}

/** Assigns the order its match and seats when there are some; true when this run assigned it. `unmatchable`: the
 * jobs this sweep already found nobody for, and why. */
async function assign(
  dispatcher: Dispatcher,
  row: WaitingRow,
  unmatchable: Map<string, WaitingReason>,
): Promise<boolean> {
  if (unmatchable.has(jobKey(row))) return false;
  const input = { status: "pending_dispatch" as const, note: "Assigned by the dispatcher." };
  let planned: Match | null = null;
  try {
    const exclude = new Set(row.offered_to?.split(",") ?? []);
    await onTenantClock(dispatcher.db, row, () =>
      assignWithSeats(dispatcher, row, { exclude }, (plan) => {
        planned = plan.match;
        return dispatcher.db.transaction((trx) => applyEvent(trx, row.id, input, plan, dispatcher.base));
      }),
    );
    return true;
  } catch (error) {
    const reason = unmatchableReason(error);
    if (reason) unmatchable.set(jobKey(row), reason);
    else if (isOverNteError(error) && planned) {
      const match: Match = planned;
      await onTenantClock(dispatcher.db, row, () => holdAtPrice(dispatcher, row, match));
    } else if (!isSettledElsewhere(error)) throw error;
    return false;
  }
}

/** Assigns what it can of every unassigned order, filling `unmatchable` with the jobs nobody could take; the number
 * assigned. */
async function assignAll(
  dispatcher: Dispatcher,
  unmatchable: Map<string, WaitingReason>,
  account?: string,
): Promise<number> {
  let assigned = 0;
  let after: WaitingRow | null = null;
  for (;;) {
    const page: WaitingRow[] = await unassignedPage(dispatcher.db, after, account);
    for (const row of page) if (await assign(dispatcher, row, unmatchable)) assigned++;
    if (page.length < pageSize) return assigned;
    after = page[page.length - 1];
  }
}

/** Escalates every order still unassigned past its deadline (each leaves the overdue set as it is escalated, or
 * as another instance escalates or assigns it), with the reason this sweep found its job unmatchable for; the
 * number escalated here. */
async function escalateOverdue(
  dispatcher: Dispatcher,
  unmatchable: Map<string, WaitingReason>,
  account?: string,
): Promise<number> {
  const { db, base } = dispatcher;
  let escalated = 0;
  for (;;) {
    const page = await overdueOrders(db, nowDate(), pageSize, account);
    for (const row of page) {
      const waiting = unmatchable.get(jobKey(row));
      if (await onTenantClock(db, row, () => escalate(db, row.id, { base, now: nowDate(), waiting }))) escalated++;
    }
    if (page.length < pageSize) return escalated;
  }
}

/** One sweep: assign what the pool can take, then escalate what is still waiting past its deadline. `account`:
 * only that account's test orders. */
export async function sweep(dispatcher: Dispatcher, account?: string): Promise<number> {
  const reoffered = await sweepOffers(dispatcher, dispatcher.base, account);
  if (reoffered) dispatcher.eventsWritten();
  const unmatchable = new Map<string, WaitingReason>();
  const assigned = await assignAll(dispatcher, unmatchable, account);
  if (assigned) dispatcher.eventsWritten(); // the sequencer numbers them before the escalations' pass
  const escalated = await escalateOverdue(dispatcher, unmatchable, account);
  if (escalated) dispatcher.eventsWritten();
  return reoffered + assigned + escalated;
}

/** The dispatcher of one server: started once it listens (`origin`: its public base URL or real address, for
 * status URLs), nudged when the pool or a contractor's load changed, stopped with the server. */
export function createDispatcher(deps: Omit<Dispatcher, "base" | "job">, intervalMs: number) {
  const dispatcher: Dispatcher = { ...deps, base: "", job: null };
  return {
    start(base: string, onError: (error: unknown) => void): void {
      dispatcher.base = base;
      if (dispatcher.job) return;
      // A nudge sweeps within a second; the interval's sweep catches what this instance was not told of.
      const timing = { intervalMs: 1000, idleMs: intervalMs, firstRunMs: 0 };
      dispatcher.job = startBackgroundJob(() => sweep(dispatcher), timing, onError);
    },
    nudge: () => dispatcher.job?.nudge(),
    /** One sweep of one account's test orders, now (an advance of its sandbox clock). */
    sweepAccount: (account: string) => sweep(dispatcher, account),
    async stop(): Promise<void> {
      await dispatcher.job?.stop();
      dispatcher.job = null;
    },
  };
}
