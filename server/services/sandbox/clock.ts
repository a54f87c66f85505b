// The sandbox clock: orders made with a dispatch_test_ key walk the lifecycle by themselves (or a step on demand);
// an order whose step fails is reported and skipped (order-failures.ts).
import type { Config } from "../../config.js";
import type { Db } from "../../db/knex.js";
import type { OrderRow } from "../../db/tables/dispatch.js";
import { DomainError } from "../errors.js";
import { startBackgroundJob, type BackgroundJob } from "../../background-job.js";
import type { ContractorService } from "../dispatch/contractors.js";
import { applyEvent } from "../dispatch/orders/apply-event.js";
import { assignWithSeats, type OfferedPlan } from "../dispatch/orders/assign.js";
import type { SeatLedger } from "../dispatch/bookings.js";
import { heldOverNte, isOverNteError } from "../dispatch/orders/nte-rule.js";
import { advancingStatuses, nextStep } from "../dispatch/orders/state.js";
import type { OrderEventInput } from "../dispatch/orders/transition.js";
import { nowDate } from "../shared/clock.js";
import { acceptOpenOffer, nextReport, reportAsHolder } from "./contractor.js";
import { statusView } from "../dispatch/orders/view.js";
import { finalCostOf, scenarioStep } from "./scenarios.js";
import { onTenantClock, scopeOf, tenantNow } from "../shared/test-clock.js";
import { isolated, type OrderFailed } from "../dispatch/orders/order-failures.js";
import { walkDueAt } from "./walk-due.js";

/** The clock: what it steps orders with, its running job, and `base`, the server's own origin once it listens. */
export interface SandboxClock {
  db: Db;
  contractors: ContractorService;
  seats: SeatLedger;
  config: Config;
  /** Told after each step's event is written (the feed sequencer's nudge). */
  eventsWritten: () => void;
  job: BackgroundJob | null;
  base: string;
  /** Told of each order whose step failed, which the walk then skips. */
  failed: OrderFailed;
}

/** The time between an order's sandbox steps: SANDBOX_STEP_MS, or with 0 the least the clock can tell apart. */
export const walkStepMs = (config: Config): number => (config.sandboxStepMs > 0 ? config.sandboxStepMs : 1);

/** The next step's event for an order an operator moved by hand: the sandbox walks it as the operator's stand-in. */
function inputFor(row: OrderRow): OrderEventInput {
  const report = nextReport(row);
  if (report?.status === "en_route")
    return {
      status: "en_route",
      note: report.note,
      estimated_arrival_at: report.estimated_arrival_at,
      eta_source: "sandbox",
    };
  if (report) return report as OrderEventInput;
  const status = nextStep(row.status)!;
  return { status, note: `Sandbox: ${status.replace("_", " ")}.` };
}

/** 409 for an order the NTE rule holds: the sandbox, like live, never dispatches or completes it. */
export const heldOrder = (id: string) =>
  new DomainError(
    "conflict",
    "held_over_nte",
    `Order ${id} is held over its not-to-exceed and is never dispatched until its price revision is approved.`,
  );

/** One step forward, as the simulated contractor (sandbox/contractor.ts) or an operator would; the NTE rule as live. */
export async function step(clock: SandboxClock, row: OrderRow) {
  const apply = (plan: OfferedPlan | null) =>
    clock.db.transaction((trx) => applyEvent(trx, row.id, inputFor(row), plan, clock.base));
  try {
    await moveOn(clock, row, apply);
    clock.eventsWritten();
    const moved = await clock.db("orders").where({ id: row.id }).first<OrderRow>();
    return await statusView(clock.db, moved, clock.base);
  } catch (error) {
    if (isOverNteError(error)) throw heldOrder(row.id);
    throw error;
  }
}

/** The move itself: the contractor's operation when one plays the order, else the operator's stand-in. */
async function moveOn(clock: SandboxClock, row: OrderRow, apply: (plan: OfferedPlan | null) => Promise<unknown>) {
  if (row.status === "accepted_pending_fulfilment") {
    await assignWithSeats(clock, row, {}, apply);
    return;
  }
  if ((await scenarioStep(clock, row, clock.base)) === "moved") return;
  if (row.status === "pending_dispatch") {
    if (await acceptOpenOffer(clock, row, clock.base)) return;
    throw new DomainError("conflict", "invalid_transition", `Order ${row.id} waits for a contractor's answer.`);
  }
  const report = nextReport(row);
  if (report?.status === "completed") report.final_cost_cents = await finalCostOf(clock, row);
  if (report && (await reportAsHolder(clock, row, report, clock.base))) return;
  await apply(null);
}

function ignoreLostRace(error: unknown) {
  if (!(error instanceof DomainError && error.kind === "conflict")) throw error;
}

/** Moves every assigned test order whose step is due on its account's clock (walk-due.ts); unassigned ones are the
 * dispatcher's. */
export async function tick(clock: SandboxClock, account?: string): Promise<number> {
  const { db } = clock;
  const due = await db("orders")
    .where("orders.environment", "test")
    .modify(scopeOf("orders", account))
    .whereIn(
      "orders.status",
      advancingStatuses.filter((status) => status !== "accepted_pending_fulfilment"),
    )
    .whereNot(heldOverNte)
    .whereRaw("? <= ?", [walkDueAt(db, walkStepMs(clock.config)), tenantNow(db, "orders", nowDate())])
    .orderBy("orders.updated_at")
    .limit(50)
    .select<OrderRow[]>("orders.*");
  for (const row of due) {
    const work = () => onTenantClock(db, row, () => step(clock, row)).catch(ignoreLostRace);
    await isolated(clock.failed, "sandbox_step", row, work);
  }
  return due.length;
}

/** Starts the clock once the server listens (`base`: its base URL); SANDBOX_STEP_MS 0 keeps it off. */
export function startSandboxClock(clock: SandboxClock, base: string, onError: (error: unknown) => void): void {
  const { config } = clock;
  clock.base = base;
  if (config.sandboxStepMs > 0 && !clock.job)
    clock.job = startBackgroundJob(() => tick(clock), { intervalMs: Math.min(config.sandboxStepMs, 1000) }, onError);
}

export async function stopSandboxClock(clock: SandboxClock): Promise<void> {
  await clock.job?.stop();
  clock.job = null;
}
