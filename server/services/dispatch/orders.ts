// Orders: entitlement, idempotent creation with auto-matching (audited, webhooked), and the status view.
import type { OrderRow } from "./order-row.js";
import { tenantOf, type Caller, type Principal, type Tenant } from "../access/principal.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/knex.js";
import { assertDispatchConfigured } from "./availability.js";
import { auditRow, type AuditRow } from "../audit/entries.js";
import type { ContractorService } from "./contractors.js";
import { DomainError } from "../errors.js";
import { notEntitledToOrder } from "./entitlement.js";
import { canonicalJson, newId, sha256Hex } from "../shared/ids.js";
import { matchFacts, rankMatches, type Match } from "./matching.js";
import { orderNotFound, statusUrl, statusView, trackingAuth, webhookData } from "./order-lifecycle.js";
import { usd } from "./pricing.js";
import { isOverNte, nteCheck } from "./nte.js";
import type { ResponseBody, Schemas, ValidBody } from "../../types/contract.js";
import { createOrderWriter, type NewOrder } from "./order-writer.js";
import { assertCallbackAllowed } from "../net/callback-guard.js";
import { quotedMatches, quoteForOrder } from "./quoted-order.js";

/** createOrder's body after validation (joi has applied the `urgency` default). */
export type OrderInput = ValidBody<"createOrder">;
type OrderBody = ResponseBody<"createOrder", 201> | ResponseBody<"createOrder", 202>;
/** Who is ordering: a key or an OAuth client; only keys with the order scope are entitled. */
export type OrderPrincipal = Caller;
export interface OrderContext {
  idempotencyKey?: string;
  /** Base of absolute URLs when PUBLIC_BASE_URL is unset: the request's own origin. */
  origin: string;
  /** When the request arrived (ms since epoch), for dispatch latency. */
  receivedAt: number;
}
export interface OrderAnswer {
  /** True when this answers a repeated Idempotency-Key / reference_id (sent as `Idempotent-Replayed: true`). */
  replayed?: boolean;
  /** `fulfilled` says whether a contractor was assigned. */
  body: OrderBody;
}
type Row = OrderRow;

function assertEntitled(
  principal: OrderPrincipal,
  config: Config,
): asserts principal is Extract<Principal, { kind: "key" }> {
  if (principal.kind === "key" && principal.scopes.includes("order")) return;
  throw notEntitledToOrder(principal, config.provisioningContact);
}

async function findPrior(
  db: Db,
  tenant: Tenant,
  referenceId: string | null,
  idempotencyKey: string | null,
): Promise<Row | undefined> {
  if (!referenceId && !idempotencyKey) return undefined;
  return db("orders")
    .where(tenant)
    .andWhere((q) => {
      if (referenceId) q.orWhere({ reference_id: referenceId });
      if (idempotencyKey) q.orWhere({ idempotency_key: idempotencyKey });
    })
    .orderBy("created_at")
    .first("id", "request_hash", "response_status", "response_body", "reference_id");
}

function replay(prior: Row, requestHash: string): OrderAnswer {
  if (prior.request_hash !== requestHash) {
    const which = prior.reference_id ? `reference_id ${prior.reference_id}` : "Idempotency-Key";
    throw new DomainError(
      "conflict",
      "idempotency_conflict",
      `${which} was already used with a different request body (order ${prior.id}).`,
    );
  }
  return { replayed: true, body: JSON.parse(prior.response_body) as OrderBody };
}

/** `priced` is the best match; `assigned` is it too unless the price is over the NTE (then the order is held). */
function summaryOf(
  id: string,
  input: OrderInput,
  priced: Match | undefined,
  assigned: Match | undefined,
  at: Date,
): Schemas["OrderSummary"] {
  const { state, zip, city } = input.location;
  return {
    id,
    status: assigned ? "pending_dispatch" : "accepted_pending_fulfilment",
    trade: input.trade,
    location: { state, ...(zip ? { zip } : {}), ...(city ? { city } : {}) },
    urgency: input.urgency,
    quoted_cost_cents: priced?.costCents ?? null,
    quoted_cost_usd: priced ? usd(priced.costCents) : null,
    assigned_contractor_ref: assigned?.contractor.ref ?? null,
    estimated_response_minutes: assigned?.responseMinutes ?? null,
    nte: nteCheck(input.nte_cents, priced?.costCents ?? null),
    created_at: at.toISOString(),
    reference_id: input.reference_id ?? null,
    quote_id: input.quote_id ?? null,
  };
}

/** The order's audit records (the order decision, and the match when one was made), seals computed up front. */
function orderAuditRows(
  decision: { id: string; tenant: Tenant; keyId: string; status: string; requestHash: string; row: NewRow },
  input: OrderInput,
  matches: Match[],
): AuditRow[] {
  const best = matches[0];
  const records = [
    auditRow({
      type: "order",
      tenant: decision.tenant,
      subject: decision.id,
      content: {
        key_id: decision.keyId,
        status: decision.status,
        trade: input.trade,
        state: input.location.state,
        urgency: input.urgency,
        nte_cents: decision.row.nte_cents,
        reference_id: decision.row.reference_id,
        request_hash: decision.requestHash,
        ...(input.quote_id ? { quote_id: input.quote_id } : {}),
      },
    }),
  ];
  if (best)
    records.push(
      auditRow({
        type: "match",
        tenant: decision.tenant,
        subject: decision.id,
        content: { ...matchFacts(best), estimated_response_minutes: best.responseMinutes, candidates: matches.length },
      }),
    );
  return records;
}

const noContractorDetail = (input: OrderInput) =>
  `No active ${input.trade} contractor serves ${input.location.state}${input.urgency === "emergency" ? " for emergencies" : ""}. The order is kept and an operator will source one.`;

const escalation = (config: Config, input: OrderInput, overNte?: Match): Schemas["Fulfilment"] => ({
  assigned: false,
  ...(overNte
    ? {
        reason: "over_nte",
        detail: `The best price (${overNte.costCents} cents) is over the not-to-exceed of ${input.nte_cents} cents. The order is held for approval; order again with a higher nte_cents and a new reference_id to dispatch.`,
      }
    : { reason: "no_contractor_in_area", detail: noContractorDetail(input) }),
  escalation_contact: config.escalationContact,
});

type InsertContext = OrderContext & { requestHash: string; tenant: Tenant; keyId: string };
type Summary = Schemas["OrderSummary"];

function orderRow(input: OrderInput, ctx: InsertContext, order: Summary, best: Match | undefined, now: Date) {
  return {
    id: order.id,
    account: ctx.tenant.account,
    environment: ctx.tenant.environment,
    key_id: ctx.keyId,
    reference_id: input.reference_id ?? null,
    quote_id: input.quote_id ?? null,
    idempotency_key: ctx.idempotencyKey ?? null,
    request_hash: ctx.requestHash,
    status: order.status,
    trade: input.trade,
    state: input.location.state,
    location: input.location, // an object: the json batch writes it to the jsonb column as is
    urgency: input.urgency,
    description: input.description,
    nte_cents: input.nte_cents ?? null,
    quoted_cost_cents: order.quoted_cost_cents,
    contractor_id: best?.contractor.id ?? null,
    estimated_response_minutes: order.estimated_response_minutes,
    callback_url: input.callback_url ?? null,
    dispatch_latency_ms: best ? Math.max(0, now.getTime() - ctx.receivedAt) : null,
    response_status: best ? (201 as const) : (202 as const),
    created_at: now,
    updated_at: now,
  };
}

/** The first `order.status_changed` message when the order has a callback_url. */
type NewRow = ReturnType<typeof orderRow>;

function webhookOf(input: OrderInput, row: NewRow, base: string): NewOrder["webhook"] {
  if (!input.callback_url) return null;
  const data = webhookData(row, null, base);
  const tenant = { account: row.account, environment: row.environment };
  return { orderId: row.id, tenant, url: input.callback_url, data };
}

/** The 201/202 body (with an escalation when no contractor was assigned) and the first event's note. */
function answerOf(
  config: Config,
  input: OrderInput,
  outcome: { order: Summary; priced?: Match; best?: Match; tracking: Schemas["Tracking"]; seal: string },
): { body: OrderBody; note: string } {
  const { order, tracking, seal } = outcome;
  if (outcome.best)
    return {
      body: {
        created: true,
        accepted: true,
        fulfilled: true,
        order: { ...order, status: "pending_dispatch" },
        tracking,
        seal,
      },
      note: "Auto-matched from the active pool.",
    };
  const fulfilment = escalation(config, input, outcome.priced);
  const body = {
    created: true,
    accepted: true,
    fulfilled: false,
    order: { ...order, status: "accepted_pending_fulfilment" },
    fulfilment,
    tracking,
    seal,
  } as const;
  return { body, note: outcome.priced ? "Held: price over NTE." : "No contractor in area." };
}

/** The order's answer and what to write for it (row with the stored answer, first event, audit, webhook). */
function prepare(
  config: Config,
  input: OrderInput,
  ctx: InsertContext,
  matches: Match[],
): { answer: OrderAnswer; write: NewOrder } {
  const priced = matches[0];
  const best = isOverNte(input.nte_cents, priced?.costCents) ? undefined : priced; // held for approval
  const now = new Date();
  const order = summaryOf(newId("ord"), input, priced, best, now);
  const { id } = order;
  const row = orderRow(input, ctx, order, best, now);
  const records = orderAuditRows(
    { id, tenant: ctx.tenant, keyId: ctx.keyId, status: order.status, row, requestHash: ctx.requestHash },
    input,
    best ? matches : [], // a held order (over its NTE) records no match
  );
  const seal = records[0].seal; // known before the insert, so the stored answer is written once
  const base = config.publicBaseUrl ?? ctx.origin;
  const tracking = { status_url: statusUrl(base, id), auth: trackingAuth };
  const { body, note } = answerOf(config, input, { order, priced, best, tracking, seal });
  const write = {
    row: { ...row, response_body: JSON.stringify(body) },
    note,
    records,
    webhook: webhookOf(input, row, base),
  };
  return { answer: { body }, write };
}

/** The state as the contract spells it (agents' input reaches here without the REST validators). */
function withUpperCaseState(payload: OrderInput): OrderInput {
  const state = payload.location.state.toUpperCase() as Schemas["UsState"];
  return { ...payload, location: { ...payload.location, state } };
}

export function createOrderService(db: Db, contractors: ContractorService, config: Config) {
  const writer = createOrderWriter(db);
  return {
    /** createOrder: 402 unless an order-scoped key, 503 when dispatch is off, replay/409 on a repeated key. */
    async create(principal: OrderPrincipal, payload: OrderInput, ctx: OrderContext): Promise<OrderAnswer> {
      assertEntitled(principal, config);
      await assertDispatchConfigured(config, contractors);
      const input = withUpperCaseState(payload);
      const requestHash = sha256Hex(canonicalJson(payload));
      const tenant = tenantOf(principal)!;
      const keys = [tenant, input.reference_id ?? null, ctx.idempotencyKey ?? null] as const;
      const prior = await findPrior(db, ...keys);
      if (prior) return replay(prior, requestHash);
      await assertCallbackAllowed(input.callback_url, config.webhookAllowPrivate);
      const candidates = await contractors.candidates(input.trade, input.location.state);
      const matches = input.quote_id // the one extra statement of a quoted order: its quote
        ? quotedMatches(candidates, input, await quoteForOrder(db, tenant, input.quote_id, input))
        : rankMatches(candidates, input);
      const insertContext = { ...ctx, requestHash, tenant, keyId: principal.id };
      const { answer, write } = prepare(config, input, insertContext, matches);
      try {
        await writer.write(write);
        return answer;
      } catch (error) {
        if ((error as { code?: string }).code !== "23505") throw error;
        const winner = await findPrior(db, ...keys); // a concurrent retry committed first: answer as it did
        if (!winner) throw error;
        return replay(winner, requestHash);
      }
    },

    /** getOrder: the tenant's own order with its history; other tenants' orders (the other environment's
     * included) are not found. */
    async get(tenant: Tenant | null, id: string, origin: string) {
      const row = tenant
        ? await db("orders")
            .where({ id, ...tenant })
            .first()
        : undefined;
      if (!row) throw orderNotFound(id);
      return statusView(db, row, config.publicBaseUrl ?? origin);
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
