// Sandbox: orders made with a dispatch_test_ key walk the lifecycle by themselves, or on demand.
import type { OrderRow } from "./order-row.js";
import type { Config } from "../../config.js";
import type { Knex } from "knex";
import type { Db } from "../../db/knex.js";
import { DomainError } from "../errors.js";
import { startBackgroundJob, type BackgroundJob } from "../shared/background-job.js";
import type { Contractor, ContractorService } from "./contractors.js";
import { applyEvent, matchUnassigned, orderNotFound, type OrderEventInput } from "./order-lifecycle.js";
import { advancingStatuses, isAhead, nextStep } from "./order-state.js";
import { isOverNte } from "./nte.js";
import type { Tenant } from "../access/principal.js";
import { tradeCodes } from "./trades.js";
import type { Schemas } from "../../types/contract.js";

type Row = OrderRow;
export type SandboxStatus = NonNullable<Schemas["SandboxAdvanceRequest"]["to"]>;

const simulatedName = "Sandbox contractor (simulated)";

/** The next step's event; only called for statuses with a forward step. */
function inputFor(row: Row): OrderEventInput {
  const status = nextStep(row.status)!;
  if (status === "en_route")
    return { status, note: `Sandbox: en route, ETA ${row.estimated_response_minutes ?? 30} minutes.` };
  if (status === "completed")
    return { status, final_cost_cents: row.quoted_cost_cents ?? 0, note: "Sandbox: completed at the quoted cost." };
  return { status, note: `Sandbox: ${status.replace("_", " ")}.` };
}

// The contract never dispatches an order held over its NTE (priced above nte_cents): it waits for the customer
// to order again, so the sandbox leaves it where it is, in the automatic steps and by hand alike.
const isHeldOverNte = (row: Row) =>
  row.status === "accepted_pending_fulfilment" && isOverNte(row.nte_cents, row.quoted_cost_cents);
/** isHeldOverNte as a query condition. */
function heldOverNte(q: Knex.QueryBuilder): void {
  q.where("orders.status", "accepted_pending_fulfilment")
    .whereNotNull("orders.nte_cents")
    .whereNotNull("orders.quoted_cost_cents")
    .whereRaw("orders.quoted_cost_cents > orders.nte_cents");
}

interface Walker {
  db: Db;
  contractors: ContractorService;
  config: Config;
  job: BackgroundJob | null;
  base: string;
}

/** An inactive pool member that never matches live orders: the stand-in when nobody covers a test order. */
async function simulatedContractor(walker: Walker): Promise<Contractor> {
  const found = await walker.db("contractors").where({ name: simulatedName, active: false }).first("id");
  const existing = found ? await walker.contractors.get(found.id as string) : null;
  if (existing) return existing;
  const trades = [...tradeCodes];
  const input = { name: simulatedName, trades, service_areas: [], hourly_rate_cents: 9000, base_response_minutes: 60 };
  return walker.contractors.create({ ...input, active: false, emergency_capable: true });
}

async function step(walker: Walker, row: Row) {
  const standIn = () => simulatedContractor(walker);
  const match =
    row.status === "accepted_pending_fulfilment" ? await matchUnassigned(walker.contractors, row, { standIn }) : null;
  return walker.db.transaction((trx) => applyEvent(trx, row.id, inputFor(row), match, walker.base));
}

/** Moves every test-key order whose last step is SANDBOX_STEP_MS old; another instance's step wins (409). */
async function tick(walker: Walker): Promise<number> {
  const due: Row[] = await walker
    .db("orders")
    .where("orders.environment", "test")
    .whereIn("orders.status", advancingStatuses)
    .whereNot(heldOverNte)
    .where("orders.updated_at", "<=", new Date(Date.now() - walker.config.sandboxStepMs))
    .orderBy("orders.updated_at")
    .limit(50)
    .select("orders.*");
  for (const row of due) await step(walker, row).catch(ignoreLostRace);
  return due.length;
}

/** advanceSandboxOrder: 403 for live keys; one step, or the steps up to `to`. */
async function advance(walker: Walker, tenant: Tenant, id: string, to: SandboxStatus | undefined) {
  if (tenant.environment !== "test") throw liveKey();
  let row: Row | undefined = await walker
    .db("orders")
    .where({ id, ...tenant })
    .first(); // test orders only
  if (!row) throw orderNotFound(id);
  if (isHeldOverNte(row)) throw heldOrder(id);
  const target = to ?? nextStep(row.status);
  if (!target || !isAhead(row.status, target))
    throw new DomainError(
      "conflict",
      "invalid_transition",
      `Order ${id} is ${row.status}; ${to ?? "no step"} is not ahead.`,
    );
  let view;
  do {
    view = await step(walker, row);
    row = await walker.db("orders").where({ id }).first();
  } while (row && row.status !== target);
  return view;
}

export function createSandboxService(db: Db, contractors: ContractorService, config: Config) {
  const walker: Walker = {
    db,
    contractors,
    config,
    job: null,
    base: config.publicBaseUrl ?? `http://${config.host}:${config.port}`,
  };
  return {
    start(origin: string, onError: (error: unknown) => void) {
      walker.base = config.publicBaseUrl ?? origin;
      if (config.sandboxStepMs > 0 && !walker.job)
        walker.job = startBackgroundJob(
          () => tick(walker),
          { intervalMs: Math.min(config.sandboxStepMs, 1000) },
          onError,
        );
    },
    async stop() {
      await walker.job?.stop();
      walker.job = null;
    },
    advance: (tenant: Tenant, id: string, to: SandboxStatus | undefined) => advance(walker, tenant, id, to),
  };
}

const liveKey = () =>
  new DomainError("forbidden", "live_key", "Only orders made with a dispatch_test_ key can be advanced by hand.");

const heldOrder = (id: string) =>
  new DomainError(
    "conflict",
    "held_over_nte",
    `Order ${id} is held over its not-to-exceed and is never dispatched; order again with a higher nte_cents.`,
  );

function ignoreLostRace(error: unknown) {
  if (!(error instanceof DomainError && error.kind === "conflict")) throw error;
}

export type SandboxService = ReturnType<typeof createSandboxService>;
