// createOrder: idempotent creation with auto-matching and the booking of an arrival window in one statement; a seat
// taken meanwhile (23505) is matched again a few times. Entitlement (402) is decided before, by the access check.
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
import { jobLocation } from "../job-location.js";
import { assertCallbackAllowed, callbackPolicy } from "../../net/callback-guard.js";
import { prepareOrder, type OrderBody, type OrderContext, type OrderInput } from "./new-order.js";
import { bookingOutcome, type BookingOutcome } from "../booking-rule.js";
import { isSeatTaken, seatAttempts, type SeatLedger } from "../bookings.js";
import { requestedWindow, unavailableBecause, whyNoneBooks } from "./windows.js";
import { stateTimeZone } from "../state-zones.js";
import { fulfilmentDeadline } from "../fulfilment-deadline.js";
import type { Match } from "../matching.js";
import { quotedMatches, quoteForOrder } from "./quoted.js";
import type { OrderWriter } from "./writer.js";
import { nowDate } from "../../shared/clock.js";
import { placeOf } from "../travel.js";
import { isLate, makeWay } from "./make-way.js";
import { baseUrlOf } from "../../shared/base-url.js";

export type { OrderContext, OrderInput } from "./new-order.js";
/** Who is ordering: a key (only keys with the order scope are entitled, which the access check has decided). */
export type OrderPrincipal = KeyCaller;
export interface OrderAnswer {
  /** True when this answers a repeated Idempotency-Key / reference_id (sent as `Idempotent-Replayed: true`). */
  replayed?: boolean;
  /** `fulfilled` says whether a contractor was assigned. */
  body: OrderBody;
}
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

/** The location as the services read it (agents' input reaches here without the REST validators). */
async function withJobLocation(payload: OrderInput): Promise<OrderInput> {
  return { ...payload, location: await jobLocation(payload.location) };
}

/** The ranked matches; a quoted order's first is its quote's contractor and price (its one extra statement). */
async function matchesFor(creation: OrderCreation, tenant: Tenant, input: OrderInput) {
  const candidates = await creation.contractors.candidates(input.trade, input.location.state);
  if (!input.quote_id) return rankMatches(candidates, input);
  return quotedMatches(candidates, input, await quoteForOrder(creation.db, tenant, input.quote_id, input));
}

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error && error.code === "23505";

/** The booking rule's outcome (409 when a requested window has no seat); as if nobody had a seat once attempts are
 * spent. */
async function planOf(
  creation: OrderCreation,
  request: { tenant: Tenant; input: OrderInput; matches: Match[]; now: Date; origin: string },
  attempt: number,
): Promise<BookingOutcome> {
  const { tenant, input, matches, now } = request;
  const last = attempt === seatAttempts;
  const zone = stateTimeZone(input.location.state);
  const requested = requestedWindow(input, zone, now.getTime()); // 422 for a window off the grid, 409 out of reach
  // A requested window nobody can take is refused: waiting (202) would end in a window the customer did not ask for.
  if (last && requested) throw requested.unavailable(unavailableBecause.full);
  const deadline = fulfilmentDeadline(input.urgency, now).getTime();
  const booking = { window: requested?.window, nteCents: input.nte_cents, quoted: Boolean(input.quote_id), deadline };
  if (last) return bookingOutcome(null, matches, booking);
  const contractors = matches.map((match) => match.contractor);
  const { trade, urgency, location } = input;
  const job = { environment: tenant.environment, zone, urgency, now: now.getTime(), trade, ...placeOf(location) };
  const occupancy = await creation.seats.read(contractors, job, attempt > 1); // a retry reads afresh
  const outcome = creation.seats.book(occupancy, matches, booking);
  if (outcome.kind === "none" && requested)
    throw requested.unavailable(whyNoneBooks(contractors, requested.window, zone, now.getTime()));
  if (requested || input.quote_id || !isLate(outcome, deadline)) return outcome;
  // nobody arrives by the deadline: the jobs in the way may move, then a fresh read books by it
  const way = { environment: tenant.environment, trade, state: location.state, location, urgency, deadline };
  const base = baseUrlOf(creation.config.publicBaseUrl, request.origin);
  if (!(await makeWay(creation.db, base, { ...way, nte_cents: input.nte_cents ?? null }, matches))) return outcome;
  creation.seats.release(outcome.plan?.booking);
  return creation.seats.book(await creation.seats.read(contractors, job, true), matches, booking);
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
  const input = await withJobLocation(payload);
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
    const outcome = await planOf(creation, { tenant, input, matches, now, origin: ctx.origin }, attempt);
    const { body, write } = prepareOrder(config, input, insert, { matches, outcome, now });
    try {
      await creation.writer.write(write);
      return { body };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winners = await findPriors(db, keys); // a concurrent retry committed first: answer as it did
      if (winners.length) return replay(winners, requestHash, keys.referenceId);
      if (!write.booking || !isSeatTaken(error)) throw error;
    } finally {
      creation.seats.release(outcome.plan?.booking);
    }
  }
}
