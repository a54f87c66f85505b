// createOrder: idempotent creation with auto-matching and the booking of an arrival window (audited, webhooked) in
// one statement. A seat another instance took between our read and our write (23505 on the booking's indexes) is
// read again and matched again, a few times at most: then a requested window is 409, else the order waits (202). Entitlement (402) is
// decided before it, once, by the operation's access check (plugins/access.ts on REST, the agents' invoker on MCP
// and A2A): what reaches it is a key holding the order scope.
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { tenantOf, type KeyCaller, type Tenant } from "../../access/principal.js";
import type { Config } from "../../../config.js";
import type { Db } from "../../../db/knex.js";
import { assertDispatchConfigured } from "../availability.js";
import type { ContractorService } from "../contractors.js";
import { DomainError } from "../../errors.js";
import { invalidField } from "./errors.js";
import { canonicalJson, sha256Hex } from "../../shared/ids.js";
import { rankMatches } from "../matching.js";
import { usStateOf } from "../trades.js";
import { assertCallbackAllowed, callbackPolicy } from "../../net/callback-guard.js";
import { prepareOrder, type OrderBody, type OrderContext, type OrderInput, type Plan } from "./new-order.js";
import { isSeatTaken, seatAttempts, type SeatLedger } from "../bookings.js";
import { requestedWindow } from "./windows.js";
import { stateTimeZone } from "../state-zones.js";
import type { Match } from "../matching.js";
import { quotedMatches, quoteForOrder } from "./quoted.js";
import type { OrderWriter } from "./writer.js";
import { nowDate } from "../../shared/clock.js";

export type { OrderContext, OrderInput } from "./new-order.js";
/** Who is ordering: a key (only keys with the order scope are entitled, which the access check has decided). */
export type OrderPrincipal = KeyCaller;
export interface OrderAnswer {
  /** True when this answers a repeated Idempotency-Key / reference_id (sent as `Idempotent-Replayed: true`). */
  replayed?: boolean;
  /** `fulfilled` says whether a contractor was assigned. */
  body: OrderBody;
}
/** What creating an order works with. */
export interface OrderCreation {
  db: Db;
  contractors: ContractorService;
  config: Config;
  writer: OrderWriter;
  seats: SeatLedger;
}
type PriorOrder = Pick<OrderRow, "id" | "request_hash" | "response_status" | "response_body" | "reference_id">;
/** The order a repeated request answers with: same tenant, and the same reference_id or Idempotency-Key. */
interface RepeatKeys {
  tenant: Tenant;
  referenceId: string | null;
  idempotencyKey: string | null;
}

/** The orders the request's reference_id and Idempotency-Key name: none, one, or two different ones. */
async function findPriors(db: Db, keys: RepeatKeys): Promise<PriorOrder[]> {
  const { referenceId, idempotencyKey } = keys;
  if (!referenceId && !idempotencyKey) return [];
  return db("orders")
    .where(keys.tenant)
    .andWhere((query) => {
      if (referenceId) void query.orWhere({ reference_id: referenceId });
      if (idempotencyKey) void query.orWhere({ idempotency_key: idempotencyKey });
    })
    .orderBy("created_at")
    .limit(2)
    .select("id", "request_hash", "response_status", "response_body", "reference_id");
}

/** Replays the one prior order; 409 when it had another body, or when the key and reference_id name two orders. */
function replay(priors: PriorOrder[], requestHash: string, referenceId: string | null): OrderAnswer {
  // Each of the two was used with its own body, so at most one can match: the other is a conflict either way.
  const prior = priors.find((p) => p.request_hash !== requestHash) ?? priors[0];
  if (priors.length > 1 || prior.request_hash !== requestHash) {
    const which =
      referenceId && prior.reference_id === referenceId ? `reference_id ${prior.reference_id}` : "Idempotency-Key";
    throw new DomainError(
      "conflict",
      "idempotency_conflict",
      `${which} was already used with a different request body (order ${prior.id}).`,
    );
  }
  return { replayed: true, body: JSON.parse(prior.response_body) as OrderBody }; // the stored first answer
}

/** The state as the contract spells it (agents' input reaches here without the REST validators). */
function withUpperCaseState(payload: OrderInput): OrderInput {
  return { ...payload, location: { ...payload.location, state: usStateOf(payload.location.state) } };
}

/** The ranked matches; a quoted order's first is its quote's contractor and price (its one extra statement). */
async function matchesFor(creation: OrderCreation, tenant: Tenant, input: OrderInput) {
  const candidates = await creation.contractors.candidates(input.trade, input.location.state);
  if (!input.quote_id) return rankMatches(candidates, input);
  return quotedMatches(candidates, input, await quoteForOrder(creation.db, tenant, input.quote_id, input));
}

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error && error.code === "23505";

/** The match and seats the booking rule picks (bookings.ts): in the requested window (409 when none has one), else
 * by the job's urgency and NTE; none once the attempts are spent (other instances kept taking the seats picked). */
async function planOf(
  creation: OrderCreation,
  request: { input: OrderInput; matches: Match[]; now: Date },
  attempt: number,
) {
  const { input, matches, now } = request;
  const last = attempt === seatAttempts;
  const zone = stateTimeZone(input.location.state);
  const requested = requestedWindow(input, zone, now.getTime()); // 422 for a window off the grid, 409 out of reach
  // A requested window nobody can take is refused even when nobody serves the job at all: waiting (202) would end
  // in another window, the earliest the dispatcher finds, which the customer did not ask for.
  if (last && requested) throw requested.unavailable();
  if (last) return null;
  const contractors = matches.map((match) => match.contractor);
  const job = { zone, urgency: input.urgency, now: now.getTime() };
  const occupancy = await creation.seats.read(contractors, job, attempt > 1); // a retry reads afresh
  const booking = { window: requested?.window, nteCents: input.nte_cents, quoted: Boolean(input.quote_id) };
  const plan = creation.seats.book(occupancy, matches, booking);
  if (!plan && requested) throw requested.unavailable();
  return plan;
}

/** 503 when dispatch is off, replay/409 on a repeated key. */
export async function createOrder(
  creation: OrderCreation,
  principal: OrderPrincipal,
  request: { payload: OrderInput; ctx: OrderContext },
): Promise<OrderAnswer> {
  const { db, config } = creation;
  const { payload, ctx } = request;
  await assertDispatchConfigured(config, creation.contractors);
  const input = withUpperCaseState(payload);
  const requestHash = sha256Hex(canonicalJson(payload));
  const tenant = tenantOf(principal)!;
  if (tenant.environment === "live" && input.sandbox_scenario !== undefined)
    throw invalidField(
      "/sandbox_scenario",
      "sandbox_scenario is for dispatch_test_ keys; a live order takes no scenario.",
    );
  const keys = { tenant, referenceId: input.reference_id ?? null, idempotencyKey: ctx.idempotencyKey ?? null };
  const priors = await findPriors(db, keys);
  if (priors.length) return replay(priors, requestHash, keys.referenceId);
  await assertCallbackAllowed(input.callback_url, callbackPolicy(config, tenant.environment));
  const matches = await matchesFor(creation, tenant, input);
  const insert = { ...ctx, requestHash, tenant, keyId: principal.id };
  for (let attempt = 1; ; attempt++) {
    const now = nowDate();
    const plan: Plan | null = await planOf(creation, { input, matches, now }, attempt);
    const { body, write } = prepareOrder(config, input, insert, { matches, plan, now });
    try {
      await creation.writer.write(write);
      return { body };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winners = await findPriors(db, keys); // a concurrent retry committed first: answer as it did
      if (winners.length) return replay(winners, requestHash, keys.referenceId);
      if (!write.booking || !isSeatTaken(error)) throw error;
    } finally {
      creation.seats.release(plan?.booking);
    }
  }
}
