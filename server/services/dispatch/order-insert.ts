// Order insertion: the order row, its first event, audit records and webhook, written in one transaction.
import type { Knex } from "knex";
import type { Config } from "../../config.js";
import { appendAudit } from "../audit/chain.js";
import { newId } from "../shared/ids.js";
import { matchFacts, type Match } from "./matching.js";
import { statusUrl, trackingAuth, webhookData } from "./order-lifecycle.js";
import type { OrderAnswer, OrderContext, OrderInput } from "./orders.js";
import { usd } from "./pricing.js";
import { enqueueStatusChange } from "../webhooks/outbox.js";

export interface InsertArgs {
  account: string;
  keyId: string;
  input: OrderInput;
  ctx: OrderContext & { requestHash: string };
  matches: Match[];
}
type OrderSummary = ReturnType<typeof summaryOf>;

function summaryOf(id: string, input: OrderInput, best: Match | undefined, createdAt: Date) {
  const { state, zip, city } = input.location;
  return {
    id,
    status: best ? "pending_dispatch" : "accepted_pending_fulfilment",
    trade: input.trade,
    location: { state, ...(zip ? { zip } : {}), ...(city ? { city } : {}) },
    urgency: input.urgency,
    quoted_cost_cents: best?.costCents ?? null,
    quoted_cost_usd: best ? usd(best.costCents) : null,
    assigned_contractor_ref: best?.contractor.ref ?? null,
    estimated_response_minutes: best?.responseMinutes ?? null,
    created_at: createdAt.toISOString(),
    reference_id: input.reference_id ?? null,
  };
}

function escalation(input: OrderInput, config: Config) {
  return {
    assigned: false,
    reason: "no_contractor_in_area",
    detail: `No active ${input.trade} contractor serves ${input.location.state}${input.urgency === "emergency" ? " for emergencies" : ""}. The order is kept and an operator will source one.`,
    escalation_contact: config.escalationContact,
  };
}

function orderRow(args: InsertArgs, order: OrderSummary, best: Match | undefined, now: Date) {
  const { input, ctx } = args;
  const responseStatus: 201 | 202 = best ? 201 : 202;
  return {
    id: order.id,
    account: args.account,
    key_id: args.keyId,
    reference_id: input.reference_id ?? null,
    idempotency_key: ctx.idempotencyKey ?? null,
    request_hash: ctx.requestHash,
    status: order.status,
    trade: input.trade,
    state: input.location.state,
    location: JSON.stringify(input.location),
    urgency: input.urgency,
    description: input.description,
    nte_cents: input.nte_cents ?? null,
    quoted_cost_cents: order.quoted_cost_cents,
    contractor_id: best?.contractor.id ?? null,
    estimated_response_minutes: order.estimated_response_minutes,
    callback_url: input.callback_url ?? null,
    dispatch_latency_ms: best ? Math.max(0, now.getTime() - ctx.receivedAt) : null,
    response_status: responseStatus,
    response_body: "{}",
    created_at: now,
    updated_at: now,
  };
}
type OrderRow = ReturnType<typeof orderRow>;

/** Appends the order record (and the match record when a contractor was found); returns the order's seal. */
async function auditOrder(trx: Knex.Transaction, args: InsertArgs, row: OrderRow, best: Match | undefined) {
  const { account, input } = args;
  const seal = await appendAudit(trx, {
    type: "order",
    account,
    subject: row.id,
    content: {
      key_id: args.keyId,
      status: row.status,
      trade: input.trade,
      state: input.location.state,
      urgency: input.urgency,
      nte_cents: row.nte_cents,
      reference_id: row.reference_id,
      request_hash: args.ctx.requestHash,
    },
  });
  if (best) {
    const content = {
      ...matchFacts(best),
      estimated_response_minutes: best.responseMinutes,
      candidates: args.matches.length,
    };
    await appendAudit(trx, { type: "match", account, subject: row.id, content });
  }
  return seal;
}

/** Inserts the order, its first event, audit records and webhook in one transaction; 23505 if a retry won. */
export async function insertOrder(trx: Knex.Transaction, config: Config, args: InsertArgs): Promise<OrderAnswer> {
  const { input, account } = args;
  const best = args.matches[0];
  const id = newId("ord");
  const now = new Date();
  const order = summaryOf(id, input, best, now);
  const row = orderRow(args, order, best, now);
  await trx("orders").insert(row);
  const note = best ? "Auto-matched from the active pool." : "No contractor in area.";
  await trx("order_events").insert({ order_id: id, status: order.status, note, at: now });
  const seal = await auditOrder(trx, args, row, best);
  const base = config.publicBaseUrl ?? args.ctx.origin;
  const tracking = { status_url: statusUrl(base, id), auth: trackingAuth };
  const body = best
    ? { created: true, accepted: true, fulfilled: true, order, tracking, seal }
    : { created: true, accepted: true, fulfilled: false, order, fulfilment: escalation(input, config), tracking, seal };
  await trx("orders")
    .where({ id })
    .update({ response_body: JSON.stringify(body) });
  if (input.callback_url) {
    const data = webhookData({ ...row, location: input.location }, null, base);
    await enqueueStatusChange(trx, { orderId: id, account, url: input.callback_url, data });
  }
  return { status: row.response_status, body };
}
