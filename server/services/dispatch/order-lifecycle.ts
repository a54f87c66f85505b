// Order lifecycle: the status view, the allowed transitions, and recording an event (audited, webhooked).
import type { Knex } from "knex";
import type { Db } from "../../db/knex.js";
import { appendAudit } from "../audit/chain.js";
import type { Contractor, ContractorService } from "./contractors.js";
import { DomainError } from "../errors.js";
import { maskRef } from "../shared/ids.js";
import { matchFacts, rankMatches, type Match } from "./matching.js";
import { enqueueStatusChange } from "../webhooks/outbox.js";

export type OrderLifecycleStatus =
  | "accepted_pending_fulfilment"
  | "pending_dispatch"
  | "dispatched"
  | "en_route"
  | "on_site"
  | "completed"
  | "cancelled";
export interface OrderEventInput {
  status: Exclude<OrderLifecycleStatus, "accepted_pending_fulfilment">;
  final_cost_cents?: number;
  note?: string;
  human_override?: boolean;
  contractor_id?: string;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Knex rows are untyped until per-table row types land
type Row = Record<string, any>;
type Conn = Knex | Knex.Transaction;

const transitions: Record<string, readonly string[]> = {
  accepted_pending_fulfilment: ["pending_dispatch", "cancelled"],
  pending_dispatch: ["dispatched", "cancelled"],
  dispatched: ["en_route", "cancelled"],
  en_route: ["on_site", "cancelled"],
  on_site: ["completed", "cancelled"],
};

export const trackingAuth = "Send the same x-api-key header.";
export const statusUrl = (base: string, id: string) => `${base.replace(/\/+$/, "")}/api/dispatch/v1/orders/${id}`;
const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();
const invalid = (pointer: string, message: string) =>
  new DomainError("validation", "validation_failed", message, { errors: [{ pointer, message }] });
export const orderNotFound = (id: string) =>
  new DomainError("not_found", "not_found", `No order ${id} for this account.`);

/** OrderStatus of the contract: the order with its event history. */
export async function statusView(db: Conn, row: Row, base: string) {
  const events = await db("order_events").where({ order_id: row.id }).orderBy("id");
  return {
    id: row.id as string,
    status: row.status as OrderLifecycleStatus,
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
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    events: events.map((e: Row) => ({
      status: e.status,
      at: iso(e.at)!,
      note: e.note ?? null,
      human_override: Boolean(e.human_override),
      final_cost_cents: e.final_cost_cents ?? null,
    })),
    tracking: { status_url: statusUrl(base, row.id), auth: trackingAuth },
  };
}

/** The `data` of an order.status_changed webhook. */
export function webhookData(row: Row, previousStatus: string | null, base: string) {
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

function assertTransition(row: Row, input: OrderEventInput): void {
  const allowed = transitions[row.status] ?? [];
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

/** The match for an unassigned order: the named contractor (who must serve the job) or the best of the pool. */
async function matchFor(contractors: ContractorService, row: Row, contractorId: string | undefined): Promise<Match> {
  const job = { trade: row.trade, location: row.location, urgency: row.urgency };
  let pool: Contractor[];
  if (contractorId) {
    const contractor = await contractors.get(contractorId);
    if (!contractor?.active || !contractor.trades.includes(row.trade))
      throw invalid("/contractor_id", `No active ${row.trade} contractor ${contractorId}.`);
    pool = [contractor];
  } else pool = await contractors.candidates(row.trade, row.state);
  const best = rankMatches(pool, job)[0];
  if (!best && contractorId)
    throw invalid(
      "/contractor_id",
      `Contractor ${contractorId} does not serve ${row.state} at ${row.urgency} urgency.`,
    );
  if (!best)
    throw new DomainError(
      "conflict",
      "no_contractor_in_area",
      `No active ${row.trade} contractor serves ${row.state} yet; name one with contractor_id.`,
    );
  return best;
}

function patchFor(row: Row, input: OrderEventInput, match: Match | null, now: Date): Row {
  const patch: Row = { status: input.status, updated_at: now };
  if (input.final_cost_cents !== undefined) patch.final_cost_cents = input.final_cost_cents;
  if (match) {
    Object.assign(patch, {
      contractor_id: match.contractor.id,
      quoted_cost_cents: match.costCents,
      estimated_response_minutes: match.responseMinutes,
    });
    patch.dispatch_latency_ms = Math.max(0, now.getTime() - new Date(row.created_at).getTime());
  }
  return patch;
}

type EventFields = Pick<Required<OrderEventInput>, "human_override"> & {
  note: string | null;
  final_cost_cents: number | null;
};

/** Appends the match record (when a contractor was assigned) and the status-change record. */
async function auditEvent(
  trx: Knex.Transaction,
  row: Row,
  input: OrderEventInput,
  match: Match | null,
  event: EventFields,
) {
  const { account, id: subject } = row;
  if (match) {
    const content = { ...matchFacts(match), human_override: event.human_override };
    await appendAudit(trx, { type: "match", account, subject, content });
  }
  const content = { from: row.status, to: input.status, ...event };
  await appendAudit(trx, { type: "order_status", account, subject, content });
}

async function applyEvent(
  trx: Knex.Transaction,
  id: string,
  input: OrderEventInput,
  match: Match | null,
  base: string,
) {
  const row = await trx("orders").where({ id }).forUpdate().first();
  if (!row) throw orderNotFound(id);
  assertTransition(row, input); // again under the row lock: another event may have moved the order meanwhile
  const now = new Date();
  const patch = patchFor(row, input, match, now);
  await trx("orders").where({ id }).update(patch);
  const event: EventFields = {
    note: input.note ?? null,
    human_override: input.human_override ?? false,
    final_cost_cents: input.final_cost_cents ?? null,
  };
  await trx("order_events").insert({ order_id: id, status: input.status, ...event, at: now });
  await auditEvent(trx, row, input, match, event);
  const updated = { ...row, ...patch };
  if (row.callback_url) {
    const data = webhookData(updated, row.status, base);
    await enqueueStatusChange(trx, { orderId: id, account: row.account, url: row.callback_url, data });
  }
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
      const match = assigning ? await matchFor(contractors, current, input.contractor_id) : null;
      return db.transaction((trx) => applyEvent(trx, id, input, match, base));
    },
  };
}

export type OrderLifecycleService = ReturnType<typeof createOrderLifecycleService>;
