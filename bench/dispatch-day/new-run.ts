// The new matcher's run of the simulated day: the real services on a real database, under a simulated clock moved a
// minute at a time. Orders go through createOrder, the dispatcher's sweep runs on its schedule and after a job ends,
// and the field's steps go through recordEvent (the operators' path), until every deadline has passed and every
// booked job is done; the database is then read for what it says (BENCHMARKS.md, "Dispatch day").
import type { Db } from "../../server/db/knex.js";
import type { OrderRow } from "../../server/db/tables/dispatch.js";
import type { ContractorService } from "../../server/services/dispatch/contractors.js";
import { sweep, type Dispatcher } from "../../server/services/dispatch/dispatcher/sweep.js";
import type { OrderInput, OrderService } from "../../server/services/dispatch/orders/index.js";
import type { SeatLedger } from "../../server/services/dispatch/bookings.js";
import type { QuoteService } from "../../server/services/dispatch/quotes.js";
import { isHeldOverNte, isOverNteError } from "../../server/services/dispatch/orders/nte-rule.js";
import { createOfferService } from "../../server/services/dispatch/offers/index.js";
import { installClock } from "../../server/services/shared/clock.js";
import type { Config } from "../../server/config.js";
import { createField, type FieldStep } from "./field.js";
import {
  invoice,
  lastDeadline,
  spanOf,
  type Outcome,
  type QuoteFigures,
  type RunResult,
  type World,
} from "./simulate.js";
import type { DayOrder } from "./world.js";

const minute = 60_000;
const sweepEveryMinutes = 5;
const base = "http://dispatch-day.invalid";
const principal = {
  kind: "key",
  id: "key_dispatch_day",
  scopes: [],
  account: "dispatch-day",
  environment: "live",
} as const;

export interface Services {
  db: Db;
  contractors: ContractorService;
  orders: OrderService;
  quotes: QuoteService;
  seats: SeatLedger;
  config: Config;
}

const orderInput = (order: DayOrder, nteCents: number | null): OrderInput => ({
  trade: order.trade,
  urgency: order.urgency,
  location: order.location,
  description: `Simulated ${order.urgency} ${order.trade} job ${order.index}.`,
  reference_id: `day-${order.index}`,
  ...(nteCents === null ? {} : { nte_cents: nteCents }),
});

type Assigned = Pick<OrderRow, "id" | "contractor_id" | "arrival_window_start" | "arrival_window_end" | "eta_at"> & {
  quoted_cost_cents: number;
};

/** The run's state and its steps; `timed` keeps the calls and time of each service path. */
function createRun(world: World, services: Services) {
  const { db, orders } = services;
  const field = createField(world.contractors, spanOf(world));
  const dispatcher: Dispatcher = {
    db,
    contractors: services.contractors,
    seats: services.seats,
    config: services.config,
    base,
    job: null,
    eventsWritten: () => undefined,
    failed: (_step, _order, error) => {
      throw error; // a run that skipped an order measured something else: it fails instead
    },
  };
  const offers = createOfferService({ ...dispatcher, eventsWritten: () => undefined });
  /** The contractor takes its offer at once (acceptOffer, as its key would): the order is dispatched. */
  async function accept(orderId: string, contractorId: string): Promise<void> {
    const offer = await db("order_offers").where({ order_id: orderId, status: "offered" }).first("id");
    const caller = { kind: "contractor", id: "key_day", contractorId, environment: "live", scopes: [] } as const;
    await timed("acceptOffer", () => offers.accept(caller, offer!.id, base));
  }
  const byId = new Map<string, Outcome>();
  const idOf = new Map<DayOrder, string>();
  const quoted = new Map<string, number>();
  const calls: Record<string, { n: number; ms: number }> = {};
  const state = { nteRefusals: 0, lastEventId: 0 };
  const quoteFigures: QuoteFigures = {
    quotes: 0,
    windows: 0,
    endingBeforeArrival: 0,
    leadingUnderWay: 0,
    graded: { high: 0, medium: 0, low: 0 },
  };
  /** The customer's quote for the order, first: what it offers is judged against its own earliest arrival. */
  async function quote(order: DayOrder): Promise<void> {
    const input = { trade: order.trade, urgency: order.urgency, location: order.location };
    const tenant = { account: principal.account, environment: principal.environment };
    const body = await timed("createQuote", () => services.quotes.create({ id: principal.id, tenant }, input));
    const at = Date.parse(body.created_at);
    const earliest = at + (body.estimated_response_minutes ?? 0) * minute;
    const windows = body.arrival_windows ?? [];
    quoteFigures.quotes++;
    quoteFigures.windows += windows.length;
    quoteFigures.endingBeforeArrival += windows.filter((w) => Date.parse(w.end) < earliest).length;
    if (windows.length && Date.parse(windows[0].start) < at) quoteFigures.leadingUnderWay++;
    for (const window of windows) quoteFigures.graded[window.confidence]++;
  }
  async function timed<T>(path: string, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await call();
    } finally {
      calls[path] ??= { n: 0, ms: 0 };
      calls[path].n++;
      calls[path].ms += performance.now() - started;
    }
  }
  return {
    field,
    byId,
    calls,
    state,
    quoteFigures,
    /** createQuote then createOrder for an arriving order; true when it was assigned at once. */
    async arrive(order: DayOrder, t: number): Promise<boolean> {
      await quote(order);
      const nteCents = world.nte.get(order) ?? null;
      const ctx = { origin: base, receivedAt: t };
      const { body } = await timed("createOrder", () => orders.create(principal, orderInput(order, nteCents), ctx));
      byId.set(body.order.id, { order, nteCents, held: false, escalated: false });
      idOf.set(order, body.order.id);
      return body.fulfilled;
    },
    /** One dispatcher sweep; true when it assigned or escalated something. */
    sweep: async () => (await timed("dispatcher sweep", () => sweep(dispatcher))) > 0,
    /** The orders assigned at `t` (by creation or the dispatcher), handed to their contractors' crews. */
    async pickUp(t: number): Promise<void> {
      const rows: Assigned[] = await db("orders")
        .where({ account: principal.account, status: "pending_dispatch" })
        .where("updated_at", ">=", new Date(t))
        .select("id", "contractor_id", "arrival_window_start", "arrival_window_end", "eta_at", "quoted_cost_cents");
      for (const row of rows) {
        const outcome = byId.get(row.id)!;
        if (outcome.job) continue;
        const window = {
          start: new Date(row.arrival_window_start!).getTime(),
          end: new Date(row.arrival_window_end!).getTime(),
        };
        const readyAt = window.start - outcome.order.travelMinutes * minute;
        outcome.assignedAt = t;
        outcome.bookedAt = t;
        if (row.eta_at) outcome.bookedEta = new Date(row.eta_at).getTime();
        outcome.job = { order: outcome.order, contractorId: row.contractor_id!, window, readyAt };
        quoted.set(row.id, row.quoted_cost_cents);
        await accept(row.id, row.contractor_id!);
        field.give(outcome.job);
      }
    },
    /** Windows the dispatch moved since the last look (re-plans): the field's jobs follow before they set off. */
    async followReplans(t: number): Promise<void> {
      const moved: (Assigned & { event_id: number })[] = await db("order_events as e")
        .join("orders as o", "o.id", "e.order_id")
        .where({ "e.account": principal.account, "e.type": "order.rescheduled" })
        .where("e.id", ">", state.lastEventId)
        .orderBy("e.id")
        .select("e.id as event_id", "o.id", "o.arrival_window_start", "o.arrival_window_end", "o.eta_at");
      for (const row of moved) {
        state.lastEventId = row.event_id;
        const outcome = byId.get(row.id);
        if (!outcome?.job || outcome.job.departedAt !== undefined) continue;
        const window = {
          start: new Date(row.arrival_window_start!).getTime(),
          end: new Date(row.arrival_window_end!).getTime(),
        };
        field.move(outcome.job, window);
        outcome.moved = (outcome.moved ?? 0) + 1;
        outcome.bookedAt = t;
        if (row.eta_at) outcome.bookedEta = new Date(row.eta_at).getTime();
      }
    },
    /** A field step through recordEvent; an invoice over the NTE is refused by the rule, then billed at the NTE. */
    async record(step: FieldStep): Promise<void> {
      const id = idOf.get(step.job.order)!;
      const event = (input: Parameters<OrderService["recordEvent"]>[1]) =>
        timed("recordEvent", () => orders.recordEvent(id, input, base));
      if (step.status === "dispatched") return; // the accepted offer dispatched it
      if (step.status !== "completed") {
        await event({ status: step.status });
        return;
      }
      const nte = byId.get(id)!.nteCents;
      try {
        await event({ status: "completed", final_cost_cents: invoice(quoted.get(id)!, step.job.order) });
      } catch (error) {
        if (!isOverNteError(error) || nte === null) throw error;
        state.nteRefusals++;
        await event({ status: "completed", final_cost_cents: nte });
      }
    },
  };
}

/** The new matcher's run: see the module header. */
export async function runNewMatcher(world: World, services: Services): Promise<RunResult> {
  const started = performance.now();
  let clock = world.orders[0].at;
  const restore = installClock({ now: () => clock });
  const run = createRun(world, services);
  const sweepUntil = lastDeadline(world.orders) + sweepEveryMinutes * minute; // one sweep after the last deadline
  const [, last] = spanOf(world);
  try {
    let next = 0;
    let nudged = false;
    const going = (t: number) => next < world.orders.length || t <= sweepUntil || !run.field.idle();
    for (let t = clock; t < last && going(t); t += minute) {
      clock = t;
      let changed = false;
      for (; next < world.orders.length && world.orders[next].at <= t; next++)
        changed = (await run.arrive(world.orders[next], t)) || changed;
      const due = (t - world.orders[0].at) % (sweepEveryMinutes * minute) === 0;
      if (t <= sweepUntil && (nudged || due)) changed = (await run.sweep()) || changed;
      nudged = false;
      if (changed) {
        await run.pickUp(t);
        await run.followReplans(t);
      }
      for (const step of run.field.tick(t)) {
        await run.record(step);
        nudged ||= step.status === "completed";
      }
    }
  } finally {
    restore();
  }
  const read = await settled(services.db, run.byId);
  return {
    ...read,
    nteRefusals: run.state.nteRefusals,
    quotes: run.quoteFigures,
    elapsedMs: performance.now() - started,
    calls: run.calls,
  };
}

/** What the database says of the run, read apart from the simulation's own bookkeeping: each order's status, its
 * escalation and NTE hold, re-assignments (offers of an order to a contractor after its first: each assignment is an offer, and an
 * accepted offer's order.assigned confirms the same contractor) and steps above an NTE without an
 * override (a dispatch step at a quoted price over it, a completion at a final cost over it). */
async function settled(db: Db, byId: Map<string, Outcome>) {
  const account = principal.account;
  const rows: Pick<OrderRow, "id" | "status" | "escalated_at" | "nte_cents" | "quoted_cost_cents">[] = await db(
    "orders",
  )
    .where({ account })
    .select("id", "status", "escalated_at", "nte_cents", "quoted_cost_cents");
  for (const row of rows) {
    const outcome = byId.get(row.id)!;
    outcome.status = row.status;
    outcome.escalated = row.escalated_at !== null;
    outcome.held = row.status === "accepted_pending_fulfilment" && isHeldOverNte(row);
  }
  const assigned: { n: number }[] = await db("order_offers")
    .join("orders", "orders.id", "order_offers.order_id")
    .where("orders.account", account)
    .groupBy("order_offers.order_id")
    .select(db.raw("count(*)::int as n"));
  const breaches = await db.raw(
    `select count(*)::int as n from order_events e join orders o on o.id = e.order_id
      where e.account = ? and not e.human_override and o.nte_cents is not null
        and e.type in ('order.created', 'order.status_changed')
        and ((e.status in ('pending_dispatch', 'dispatched') and o.quoted_cost_cents > o.nte_cents)
          or (e.status = 'completed' and e.final_cost_cents > o.nte_cents))`,
    [account],
  );
  const replans = await db("order_events")
    .where({ account, type: "order.rescheduled" })
    .whereRaw("coalesce(data->>'rescheduled_by', '') not in ('customer', 'contractor')")
    .count<{ n: string }[]>({ n: "*" });
  return {
    outcomes: [...byId.values()],
    replans: Number(replans[0].n),
    reassignments: assigned.reduce((sum, row) => sum + row.n - 1, 0),
    nteBreaches: (breaches.rows as { n: number }[])[0].n,
  };
}
