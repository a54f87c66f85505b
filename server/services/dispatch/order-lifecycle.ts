// Order lifecycle: the status view, the allowed transitions, and recording an event (audited, webhooked).
import type { OrderEventRow, OrderRow } from "./order-row.js";
import type { Knex } from "knex";
import type { Db } from "../../db/knex.js";
import { appendAudit } from "../audit/entries.js";
import type { Contractor, ContractorService } from "./contractors.js";
import { DomainError } from "../errors.js";
import { maskRef } from "../shared/ids.js";
import { rankMatches, type Match } from "./matching.js";
import { enqueueStatusChange } from "../webhooks/outbox.js";
import type { RequestBody, Schemas } from "../../types/contract.js";
import { allowedFrom, customerMayCancel, type OrderLifecycleStatus } from "./order-state.js";

export type { OrderLifecycleStatus } from "./order-state.js";
export type Cancellation = Schemas["Cancellation"];
/** recordOrderEvent's body, and what cancelling adds: why and by whom (an operator's cancellation defaults to
 * operator_decision). */
export type OrderEventInput = RequestBody<"recordOrderEvent"> & { cancellation?: Omit<Cancellation, "at"> };
type OrderView = Schemas["OrderStatus"];
type Row = OrderRow;
/** An update of the orders table: jsonb columns are written as JSON text. */
type OrderPatch = Partial<Omit<Row, "cancellation">> & { cancellation?: string };
/** What an order.status_changed webhook tells of the order. */
type WebhookFacts = Pick<Row, "id" | "status" | "reference_id" | "contractor_id" | "quoted_cost_cents"> & {
  final_cost_cents?: number | null;
  updated_at: Date | string;
};
type Conn = Knex | Knex.Transaction;

export const trackingAuth = "Send the same x-api-key header.";
export const statusUrl = (base: string, id: string) => `${base.replace(/\/+$/, "")}/api/dispatch/v1/orders/${id}`;
const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();
const invalid = (pointer: string, message: string) =>
  new DomainError("validation", "validation_failed", message, { errors: [{ pointer, message }] });
export const orderNotFound = (id: string) =>
  new DomainError("not_found", "not_found", `No order ${id} for this account.`);

function viewOf(row: Row, events: OrderEventRow[], base: string): OrderView {
  return {
    id: row.id,
    status: row.status,
    trade: row.trade,
    location: row.location,
    urgency: row.urgency,
    description: row.description,
    nte_cents: row.nte_cents ?? null,
    quoted_cost_cents: row.quoted_cost_cents ?? null,
    final_cost_cents: row.final_cost_cents ?? null,
    assigned_contractor_ref: row.contractor_id ? maskRef(row.contractor_id) : null,
    estimated_response_minutes: row.estimated_response_minutes ?? null,
    reference_id: row.reference_id ?? null,
    quote_id: row.quote_id ?? null,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    events: events.map((e) => ({
      status: e.status,
      at: iso(e.at)!,
      note: e.note ?? null,
      human_override: e.human_override,
      final_cost_cents: e.final_cost_cents ?? null,
    })),
    tracking: { status_url: statusUrl(base, row.id), auth: trackingAuth },
    cancellation: row.cancellation ?? null,
  };
}

/** OrderStatus of the contract: the order with its event history. */
export async function statusView(db: Conn, row: Row, base: string): Promise<OrderView> {
  return viewOf(row, await db("order_events").where({ order_id: row.id }).orderBy("id"), base);
}

/** statusView for a page of orders with one events query. */
export async function statusViews(db: Conn, rows: Row[], base: string): Promise<OrderView[]> {
  const ids = rows.map((r) => r.id);
  const events = ids.length ? await db("order_events").whereIn("order_id", ids).orderBy("id") : [];
  return rows.map((row) =>
    viewOf(
      row,
      events.filter((e: OrderEventRow) => e.order_id === row.id),
      base,
    ),
  );
}

/** The `data` of an order.status_changed webhook. */
export function webhookData(
  row: WebhookFacts,
  previousStatus: OrderLifecycleStatus | null,
  base: string,
): Omit<Schemas["OrderEventData"], "order_id" | "at"> & { at: string | null } {
  return {
    status: row.status,
    previous_status: previousStatus,
    reference_id: row.reference_id ?? null,
    assigned_contractor_ref: row.contractor_id ? maskRef(row.contractor_id) : null,
    quoted_cost_cents: row.quoted_cost_cents ?? null,
    final_cost_cents: row.final_cost_cents ?? null,
    status_url: statusUrl(base, row.id),
    at: iso(row.updated_at),
  };
}

export function assertTransition(row: Pick<Row, "id" | "status">, input: OrderEventInput): void {
  const allowed = allowedFrom(row.status);
  if (!allowed.includes(input.status)) {
    throw new DomainError(
      "conflict",
      "invalid_transition",
      `Order ${row.id} is ${row.status}; it can move to ${allowed.join(" or ") || "nothing (final status)"}, not ${input.status}.`,
    );
  }
  if (input.status === "completed" && input.final_cost_cents === undefined)
    throw invalid("/final_cost_cents", '"final_cost_cents" is required to complete an order.');
  if (input.contractor_id && row.status !== "accepted_pending_fulfilment")
    throw invalid("/contractor_id", '"contractor_id" only applies when assigning an unassigned order.');
}

interface MatchRequest {
  /** The contractor an operator named: they must serve the job. */
  contractorId?: string;
  /** Who takes the job when nobody in the pool covers it (the sandbox's simulated contractor); else a 409. */
  standIn?: () => Promise<Contractor>;
}

/** The match for an unassigned order: the named contractor, else the best of the pool, else the stand-in. */
export async function matchUnassigned(contractors: ContractorService, row: Row, request: MatchRequest): Promise<Match> {
  const { contractorId, standIn } = request;
  const job = { trade: row.trade, location: row.location, urgency: row.urgency };
  let pool: Contractor[];
  if (contractorId) {
    const contractor = await contractors.get(contractorId);
    if (!contractor?.active || !contractor.trades.includes(row.trade))
      throw invalid("/contractor_id", `No active ${row.trade} contractor ${contractorId}.`);
    pool = [contractor];
  } else pool = await contractors.candidates(row.trade, row.state);
  const best = rankMatches(pool, job)[0];
  if (best) return best;
  if (contractorId)
    throw invalid(
      "/contractor_id",
      `Contractor ${contractorId} does not serve ${row.state} at ${row.urgency} urgency.`,
    );
  if (standIn) return rankMatches([{ ...(await standIn()), service_areas: [{ state: row.state }] }], job)[0];
  throw new DomainError(
    "conflict",
    "no_contractor_in_area",
    `No active ${row.trade} contractor serves ${row.state} yet; name one with contractor_id.`,
  );
}

export function assertCustomerCancellable(row: Pick<Row, "id" | "status">): void {
  if (!customerMayCancel(row.status))
    throw new DomainError(
      "conflict",
      "cannot_cancel",
      `Order ${row.id} is ${row.status}; it can be cancelled only before the contractor is on site.`,
    );
}

export function cancellationOf(input: OrderEventInput, now: Date): Cancellation {
  const given = input.cancellation ?? {
    reason: "operator_decision",
    note: input.note ?? null,
    by: "operator" as const,
  };
  return { ...given, at: now.toISOString() };
}

interface EventRecord {
  note: string | null;
  human_override: boolean;
  final_cost_cents: number | null;
}

/** The audit records and the webhook of one status change, inside its transaction. */
async function recordSideEffects(
  trx: Knex.Transaction,
  change: { row: Row; updated: Row; event: EventRecord; match: Match | null; cancellation: Cancellation | null },
  base: string,
) {
  const { row, updated, event, match, cancellation } = change;
  const tenant = { account: row.account, environment: row.environment };
  if (match)
    await appendAudit(trx, {
      type: "match",
      tenant,
      subject: row.id,
      content: {
        contractor_ref: match.contractor.ref,
        coverage: match.coverage,
        quoted_cost_cents: match.costCents,
        human_override: event.human_override,
      },
    });
  await appendAudit(trx, {
    type: "order_status",
    tenant,
    subject: row.id,
    content: { from: row.status, to: updated.status, ...event, ...(cancellation ? { cancellation } : {}) },
  });
  if (row.callback_url)
    await enqueueStatusChange(trx, {
      orderId: row.id,
      tenant,
      url: row.callback_url,
      data: webhookData(updated, row.status, base),
    });
}

/** Applies one status change under the row lock: order, event, audit records and webhook in one transaction. */
export async function applyEvent(
  trx: Knex.Transaction,
  id: string,
  input: OrderEventInput,
  match: Match | null,
  base: string,
) {
  const row = await trx("orders").where({ id }).forUpdate().first();
  if (!row) throw orderNotFound(id);
  const byCustomer = input.cancellation?.by === "customer";
  if (byCustomer && row.status === "cancelled") return statusView(trx, row, base); // repeated cancel: same answer
  if (byCustomer) assertCustomerCancellable(row);
  assertTransition(row, input); // again under the row lock: another event may have moved the order meanwhile
  const now = new Date();
  const cancellation = input.status === "cancelled" ? cancellationOf(input, now) : null;
  const patch: OrderPatch = { status: input.status, updated_at: now };
  if (cancellation) patch.cancellation = JSON.stringify(cancellation);
  if (input.final_cost_cents !== undefined) patch.final_cost_cents = input.final_cost_cents;
  if (match)
    Object.assign(patch, {
      contractor_id: match.contractor.id,
      quoted_cost_cents: match.costCents,
      estimated_response_minutes: match.responseMinutes,
      dispatch_latency_ms: Math.max(0, now.getTime() - new Date(row.created_at).getTime()),
    });
  await trx("orders").where({ id }).update(patch);
  const event = {
    note: input.note ?? null,
    human_override: input.human_override ?? false,
    final_cost_cents: input.final_cost_cents ?? null,
  };
  await trx("order_events").insert({ order_id: id, status: input.status, ...event, at: now });
  const updated = { ...row, ...patch, cancellation: cancellation ?? row.cancellation };
  await recordSideEffects(trx, { row, updated, event, match, cancellation }, base);
  return statusView(trx, updated, base);
}

export function createOrderLifecycleService(db: Db, contractors: ContractorService) {
  return {
    /** Records a status change (admin); 404 unknown order, 409 invalid transition, 422 missing fields. */
    async record(id: string, input: OrderEventInput, base: string) {
      const current = await db("orders").where({ id }).first();
      if (!current) throw orderNotFound(id);
      assertTransition(current, input);
      const assigning = current.status === "accepted_pending_fulfilment" && input.status === "pending_dispatch";
      const match = assigning
        ? await matchUnassigned(contractors, current, { contractorId: input.contractor_id })
        : null;
      return db.transaction((trx) => applyEvent(trx, id, input, match, base));
    },
  };
}

export type OrderLifecycleService = ReturnType<typeof createOrderLifecycleService>;
