// Sandbox: orders made with a dispatch_test_ key walk the lifecycle by themselves, or on demand.
import type { OrderRow } from "./order-row.js";
import type { Config } from "../../config.js";
import type { Knex } from "knex";
import type { Db } from "../../db/knex.js";
import { DomainError } from "../errors.js";
import { startBackgroundJob, type BackgroundJob } from "../shared/background-job.js";
import type { Contractor, ContractorService } from "./contractors.js";
import { rankMatches, type Match } from "./matching.js";
import { applyEvent, orderNotFound, type OrderEventInput } from "./order-lifecycle.js";
import type { Tenant } from "../access/principal.js";
import { tradeCodes } from "./trades.js";

type Row = OrderRow;
export type SandboxStatus = "pending_dispatch" | "dispatched" | "en_route" | "on_site" | "completed";

const next: Record<string, SandboxStatus> = {
  accepted_pending_fulfilment: "pending_dispatch",
  pending_dispatch: "dispatched",
  dispatched: "en_route",
  en_route: "on_site",
  on_site: "completed",
};
const sequence = ["accepted_pending_fulfilment", "pending_dispatch", "dispatched", "en_route", "on_site", "completed"];
const simulatedName = "Sandbox contractor (simulated)";

function inputFor(row: Row): OrderEventInput {
  const status = next[row.status];
  if (status === "en_route")
    return { status, note: `Sandbox: en route, ETA ${row.estimated_response_minutes ?? 30} minutes.` };
  if (status === "completed")
    return { status, final_cost_cents: row.quoted_cost_cents ?? 0, note: "Sandbox: completed at the quoted cost." };
  return { status, note: `Sandbox: ${status.replace("_", " ")}.` };
}

// The contract never dispatches an order held over its NTE (priced above nte_cents): it waits for the customer
// to order again, so the sandbox leaves it where it is, in the automatic steps and by hand alike.
const isHeldOverNte = (row: Row) =>
  row.status === "accepted_pending_fulfilment" &&
  row.nte_cents != null &&
  row.quoted_cost_cents != null &&
  Number(row.quoted_cost_cents) > Number(row.nte_cents);
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
async function simulatedContractor(w: Walker): Promise<Contractor> {
  const found = await w.db("contractors").where({ name: simulatedName, active: false }).first("id");
  const existing = found ? await w.contractors.get(found.id as string) : null;
  if (existing) return existing;
  const trades = [...tradeCodes];
  const input = { name: simulatedName, trades, service_areas: [], hourly_rate_cents: 9000, base_response_minutes: 60 };
  return w.contractors.create({ ...input, active: false, emergency_capable: true });
}

async function matchFor(w: Walker, row: Row): Promise<Match> {
  const job = { trade: row.trade, location: row.location, urgency: row.urgency };
  const best = rankMatches(await w.contractors.candidates(row.trade, row.state), job)[0];
  if (best) return best;
  const stand = { ...(await simulatedContractor(w)), service_areas: [{ state: row.state as string }] };
  return rankMatches([stand], job)[0];
}

async function step(w: Walker, row: Row) {
  const match = row.status === "accepted_pending_fulfilment" ? await matchFor(w, row) : null;
  return w.db.transaction((trx) => applyEvent(trx, row.id as string, inputFor(row), match, w.base));
}

/** Moves every test-key order whose last step is SANDBOX_STEP_MS old; another instance's step wins (409). */
async function tick(w: Walker): Promise<number> {
  const due: Row[] = await w
    .db("orders")
    .where("orders.environment", "test")
    .whereIn("orders.status", Object.keys(next))
    .whereNot(heldOverNte)
    .where("orders.updated_at", "<=", new Date(Date.now() - w.config.sandboxStepMs))
    .orderBy("orders.updated_at")
    .limit(50)
    .select("orders.*");
  for (const row of due) await step(w, row).catch(ignoreLostRace);
  return due.length;
}

/** advanceSandboxOrder: 403 for live keys; one step, or the steps up to `to`. */
async function advance(w: Walker, tenant: Tenant, id: string, to: SandboxStatus | undefined) {
  if (tenant.environment !== "test") throw liveKey();
  let row: Row | undefined = await w
    .db("orders")
    .where({ id, ...tenant })
    .first(); // test orders only
  if (!row) throw orderNotFound(id);
  if (isHeldOverNte(row)) throw heldOrder(id);
  const target = to ?? next[row.status];
  if (!target || !next[row.status] || sequence.indexOf(target) <= sequence.indexOf(row.status))
    throw new DomainError(
      "conflict",
      "invalid_transition",
      `Order ${id} is ${row.status}; ${to ?? "no step"} is not ahead.`,
    );
  let view;
  do {
    view = await step(w, row);
    row = await w.db("orders").where({ id }).first();
  } while (row && row.status !== target);
  return view;
}

export function createSandboxService(db: Db, contractors: ContractorService, config: Config) {
  const w: Walker = {
    db,
    contractors,
    config,
    job: null,
    base: config.publicBaseUrl ?? `http://${config.host}:${config.port}`,
  };
  return {
    start(origin: string, onError: (error: unknown) => void) {
      w.base = config.publicBaseUrl ?? origin;
      if (config.sandboxStepMs > 0 && !w.job)
        w.job = startBackgroundJob(() => tick(w), { intervalMs: Math.min(config.sandboxStepMs, 1000) }, onError);
    },
    async stop() {
      await w.job?.stop();
      w.job = null;
    },
    advance: (tenant: Tenant, id: string, to: SandboxStatus | undefined) => advance(w, tenant, id, to),
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
