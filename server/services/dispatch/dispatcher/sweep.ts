// The dispatcher: assigns unassigned orders, oldest first, by the booking rule's outcome (or holds them at their
// price), then escalates what waits past its deadline (docs/decisions.md#the-dispatcher).
import type { Db } from "../../../db/knex.js";
import type { Config } from "../../../config.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { startBackgroundJob, type BackgroundJob } from "../../../background-job.js";
import { DomainError } from "../../errors.js";
import type { ContractorService } from "../contractors.js";
import type { Match } from "../matching.js";
import { applyEvent } from "../orders/apply-event.js";
import { actOnOutcome } from "../orders/assign.js";
import type { SeatLedger } from "../bookings.js";
import { overdueOrders, type WaitingReason } from "./escalation.js";
import { escalate } from "./escalate.js";
import { holdAtPrice } from "../orders/hold.js";
import { heldOverNte } from "../orders/nte-rule.js";
import { nowDate } from "../../shared/clock.js";
import { sweepOffers } from "./offer-expiry.js";
import { replanLateOrders } from "./replan.js";
import { makeWay, type WayJob } from "../orders/make-way.js";
import { onTenantClock } from "../../shared/test-clock.js";
import { isolated, type OrderFailed } from "../orders/order-failures.js";

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
  /** Told of each order the sweep could not move, which it then skips. */
  failed: OrderFailed;
}

const pageSize = 100;

/** What a sweep reads of a waiting order: its key and its job; the assignment reads the rest under its lock. */
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

const isSettledElsewhere = (error: unknown) => error instanceof DomainError && error.code === "invalid_transition";

function unmatchableReason(error: unknown): WaitingReason | null {
  if (!(error instanceof DomainError)) return null;
  if (error.code === "no_contractor_in_area") return "no_contractor_in_area";
  return error.code === "no_window_available" ? "no_window_available" : null;
}
const jobKey = (row: Pick<OrderRow, "environment" | "trade" | "state" | "urgency">) =>
  `${row.environment}|${row.trade}|${row.state}|${row.urgency}`;

async function hold(dispatcher: Dispatcher, row: Pick<OrderRow, "id">, match: Match): Promise<void> {
  if (await holdAtPrice(dispatcher.db, row.id, match, dispatcher.base)) dispatcher.eventsWritten();
}

/** The dispatcher's assignments make way for a job nobody reaches by its deadline (orders/make-way.ts). */
const withWay = (dispatcher: Dispatcher) => ({
  ...dispatcher,
  makeWay: (job: WayJob, matches: Match[]) => makeWay(dispatcher.db, dispatcher.base, job, matches),
});

/** Acts on the booking rule's outcome: assigns the order (true) or holds it at its price; a hold without a seat
 * tells the sweep, as "none" does, that nobody serving the job has one. */
async function assignOrHold(
  dispatcher: Dispatcher,
  row: WaitingRow,
  unmatchable: Map<string, WaitingReason>,
): Promise<boolean> {
  const input = { status: "pending_dispatch" as const, note: "Assigned by the dispatcher." };
  try {
    const exclude = new Set(row.offered_to?.split(",") ?? []);
    return await onTenantClock(dispatcher.db, row, () =>
      actOnOutcome(withWay(dispatcher), row, { exclude }, async (outcome) => {
        if (outcome.kind === "assign") {
          const { plan } = outcome;
          await dispatcher.db.transaction((trx) => applyEvent(trx, row.id, input, plan, dispatcher.base));
          return true;
        }
        await hold(dispatcher, row, outcome.match);
        if (!outcome.plan) unmatchable.set(jobKey(row), "no_window_available");
        return false;
      }),
    );
  } catch (error) {
    const reason = unmatchableReason(error);
    if (reason) unmatchable.set(jobKey(row), reason);
    else if (!isSettledElsewhere(error)) throw error;
    return false;
  }
}

async function assign(dispatcher: Dispatcher, row: WaitingRow, unmatchable: Map<string, WaitingReason>) {
  if (unmatchable.has(jobKey(row))) return false;
  const assigned = await isolated(dispatcher.failed, "assign", row, () => assignOrHold(dispatcher, row, unmatchable));
  return assigned ?? false;
}

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

async function escalateOverdue(
  dispatcher: Dispatcher,
  unmatchable: Map<string, WaitingReason>,
  account?: string,
): Promise<number> {
  const { db, base } = dispatcher;
  let escalated = 0;
  let after: OrderRow | null = null;
  for (;;) {
    const page: OrderRow[] = await overdueOrders(db, nowDate(), { limit: pageSize, account, after });
    for (const row of page) {
      const waiting = unmatchable.get(jobKey(row));
      const work = () => onTenantClock(db, row, () => escalate(db, row.id, { base, now: nowDate(), waiting }));
      if (await isolated(dispatcher.failed, "escalate", row, work)) escalated++;
    }
    if (page.length < pageSize) return escalated;
    after = page[page.length - 1];
  }
}

/** One sweep: assign what the pool can take, re-plan what is booked late, then escalate what is overdue; `account`: only its test orders. */
export async function sweep(dispatcher: Dispatcher, account?: string): Promise<number> {
  const reoffered = await sweepOffers(dispatcher, { base: dispatcher.base, failed: dispatcher.failed }, account);
  if (reoffered) dispatcher.eventsWritten();
  const unmatchable = new Map<string, WaitingReason>();
  const assigned = await assignAll(dispatcher, unmatchable, account);
  if (assigned) dispatcher.eventsWritten(); // the sequencer numbers them before the escalations' pass
  const replanned = await replanLateOrders(dispatcher, account);
  if (replanned) {
    dispatcher.seats.changed();
    dispatcher.eventsWritten();
  }
  const escalated = await escalateOverdue(dispatcher, unmatchable, account);
  if (escalated) dispatcher.eventsWritten();
  return reoffered + assigned + replanned + escalated;
}

/** The dispatcher of one server: started once it listens, nudged when the pool or a load changed, stopped with it. */
export function createDispatcher(deps: Omit<Dispatcher, "base" | "job">, intervalMs: number) {
  const dispatcher: Dispatcher = { ...deps, base: "", job: null };
  return {
    start(base: string, onError: (error: unknown) => void): void {
      dispatcher.base = base;
      if (dispatcher.job) return;
      const timing = { intervalMs: 1000, idleMs: intervalMs, firstRunMs: 0 };
      dispatcher.job = startBackgroundJob(() => sweep(dispatcher), timing, onError);
    },
    nudge: () => dispatcher.job?.nudge(),
    sweepAccount: (account: string) => sweep(dispatcher, account),
    async stop(): Promise<void> {
      await dispatcher.job?.stop();
      dispatcher.job = null;
    },
  };
}
