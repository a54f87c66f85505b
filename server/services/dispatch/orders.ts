// Orders: entitlement, idempotent creation with auto-matching (audited, webhooked), and the status view.
import type { Config } from "../../config.js";
import type { Db } from "../../db/knex.js";
import { assertDispatchConfigured } from "./availability.js";
import type { ContractorService } from "./contractors.js";
import { DomainError, EntitlementError } from "../errors.js";
import { canonicalJson, sha256Hex } from "../shared/ids.js";
import { rankMatches } from "./matching.js";
import { insertOrder } from "./order-insert.js";
import { orderNotFound, statusView } from "./order-lifecycle.js";
import type { TradeCode, Urgency } from "./trades.js";
import { assertCallbackAllowed } from "../net/callback-guard.js";

export interface OrderInput {
  trade: TradeCode;
  location: { state: string; zip?: string; city?: string; address?: string; name?: string };
  urgency: Urgency;
  nte_cents?: number;
  description: string;
  callback_url?: string;
  reference_id?: string;
}
/** Who is ordering (the auth plugin's principal). */
export interface OrderPrincipal {
  kind: string;
  id: string;
  account?: string;
  scopes?: string[];
}
export interface OrderContext {
  idempotencyKey?: string;
  /** Base of absolute URLs when PUBLIC_BASE_URL is unset: the request's own origin. */
  origin: string;
  /** When the request arrived (ms since epoch), for dispatch latency. */
  receivedAt: number;
}
export interface OrderAnswer {
  status: 201 | 202;
  body: { tracking: { status_url: string } } & Record<string, unknown>;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Knex rows are untyped until per-table row types land
type Row = Record<string, any>;

function assertEntitled(
  principal: OrderPrincipal,
  config: Config,
): asserts principal is OrderPrincipal & { account: string } {
  if (principal.kind === "key" && principal.account && principal.scopes?.includes("order")) return;
  throw new EntitlementError({
    error: "payment_required",
    message:
      principal.kind === "key"
        ? "This key can quote but was issued without the order scope."
        : "This credential can quote but is not entitled to create orders.",
    entitled_credential: "A provisioned integration key (x-api-key) with the order scope.",
    provisioning_contact: config.provisioningContact,
    free_alternatives: [
      "dispatch.quote",
      "dispatch.estimate",
      "dispatch.index",
      "dispatch.evals",
      "agentic.readiness_probe",
    ],
  });
}

async function findPrior(
  db: Db,
  account: string,
  referenceId: string | null,
  idempotencyKey: string | null,
): Promise<Row | undefined> {
  if (!referenceId && !idempotencyKey) return undefined;
  return db("orders")
    .where({ account })
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
  return { status: prior.response_status, body: JSON.parse(prior.response_body) as OrderAnswer["body"] };
}

interface OrderDeps {
  db: Db;
  contractors: ContractorService;
  config: Config;
}

/** createOrder: 402 unless an order-scoped key, 503 when dispatch is off, replay/409 on a repeated key. */
async function createOrder(
  { db, contractors, config }: OrderDeps,
  principal: OrderPrincipal,
  payload: OrderInput,
  ctx: OrderContext,
): Promise<OrderAnswer> {
  assertEntitled(principal, config);
  await assertDispatchConfigured(config, contractors);
  const input = { ...payload, location: { ...payload.location, state: payload.location.state.toUpperCase() } };
  const requestHash = sha256Hex(canonicalJson(payload));
  const keys = [principal.account, input.reference_id ?? null, ctx.idempotencyKey ?? null] as const;
  const prior = await findPrior(db, ...keys);
  if (prior) return replay(prior, requestHash);
  await assertCallbackAllowed(input.callback_url, config.webhookAllowPrivate);
  const matches = rankMatches(await contractors.candidates(input.trade, input.location.state), input);
  const args = { account: principal.account, keyId: principal.id, input, ctx: { ...ctx, requestHash }, matches };
  try {
    return await db.transaction((trx) => insertOrder(trx, config, args));
  } catch (error) {
    if ((error as { code?: string }).code !== "23505") throw error;
    const winner = await findPrior(db, ...keys); // a concurrent retry committed first: answer as it did
    if (!winner) throw error;
    return replay(winner, requestHash);
  }
}

/** getOrder: the account's own order with its history; other accounts' orders are not found. */
async function getOrder({ db, config }: OrderDeps, principal: OrderPrincipal, id: string, origin: string) {
  const row =
    principal.kind === "key" && principal.account
      ? await db("orders").where({ id, account: principal.account }).first()
      : undefined;
  if (!row) throw orderNotFound(id);
  return statusView(db, row, config.publicBaseUrl ?? origin);
}

export function createOrderService(db: Db, contractors: ContractorService, config: Config) {
  const deps: OrderDeps = { db, contractors, config };
  return {
    create: (principal: OrderPrincipal, payload: OrderInput, ctx: OrderContext) =>
      createOrder(deps, principal, payload, ctx),
    get: (principal: OrderPrincipal, id: string, origin: string) => getOrder(deps, principal, id, origin),
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
