// A new order's answer and what to write for it, all decided before the one insert: the row, first event, audit
// records, webhook, booking (bookings.ts) and offer, or for an order held over its NTE, its pending price revision.
import type { Tenant } from "../../access/principal.js";
import type { Config } from "../../../config.js";
import { auditRow, type AuditRow } from "../../audit/entries.js";
import { newId } from "../../shared/ids.js";
import { matchFacts, type Match } from "../matching.js";
import { usd } from "../pricing.js";
import { nteCheck } from "../nte.js";
import type { ResponseBody, Schemas, ValidBody } from "../../../types/contract.js";
import { trackingAuth } from "./view.js";
import { baseUrlOf, statusUrl } from "../../shared/base-url.js";
import type { NewOrder } from "./writer.js";
import { dispatchEta, noEta } from "./eta.js";
import { assignmentColumns, unassignedColumns, type Plan } from "./assignment.js";
import { bookingRow, type Booking } from "../bookings.js";
import { offerAudit, offerRow, respondByOf } from "./offer-records.js";
import { heldRevisionOf, revisionAudit } from "./revision-records.js";
import type { PriceRevisionRow } from "../../../db/tables/dispatch.js";
import type { BookingOutcome } from "../booking-rule.js";

export type { Plan } from "./assignment.js";

/** createOrder's body after validation (joi has applied the `urgency` default). */
export type OrderInput = ValidBody<"createOrder">;
export type OrderBody = ResponseBody<"createOrder", 201> | ResponseBody<"createOrder", 202>;
export interface OrderContext {
  idempotencyKey?: string;
  /** Base of absolute URLs when PUBLIC_BASE_URL is unset: the request's own origin. */
  origin: string;
  /** When the request arrived (wall-clock ms since epoch), for dispatch latency. */
  receivedAt: number;
}
/** Who orders and how the request is known again: its tenant, key and request hash. */
export type InsertContext = OrderContext & { requestHash: string; tenant: Tenant; keyId: string };
type Summary = Schemas["OrderSummary"];

/** `priced` is the match the booking rule's outcome is priced at; `assigned` is it too when the outcome assigns. */
function summaryOf(
  id: string,
  input: OrderInput,
  match: { priced?: Match; assigned?: Match; booking?: Booking },
  at: Date,
): Summary {
  const { priced, assigned, booking } = match;
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
    arrival_window: booking ? { start: booking.window.startText, end: booking.window.endText } : null,
  };
}

function orderRow(input: OrderInput, ctx: InsertContext, order: Summary, assigned: Plan | undefined, now: Date) {
  const best = assigned?.match;
  // latency on the wall clock that stamped the request's arrival (its own handling time, not business time)
  const latency = { arrivedAt: ctx.receivedAt, assignedAt: Date.now() };
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
    sandbox_scenario: input.sandbox_scenario ?? null,
    callback_url: input.callback_url ?? null,
    window_fixed: input.arrival_window !== undefined, // the customer's choice: re-planning leaves it alone
    ...(assigned ? assignmentColumns(assigned, latency) : { ...unassignedColumns, dispatch_latency_ms: null }),
    quoted_cost_cents: order.quoted_cost_cents, // a held order keeps the price it is held at
    response_status: best ? (201 as const) : (202 as const),
    created_at: now,
    updated_at: now,
    ...(best ? dispatchEta(best.responseMinutes, now, assigned?.booking.arrival) : noEta),
  };
}

type NewRow = ReturnType<typeof orderRow>;

/** The order's audit records (the order decision, and the match when one was made), seals computed up front. */
function orderAuditRows(row: NewRow, input: OrderInput, matches: Match[]): AuditRow[] {
  const tenant = { account: row.account, environment: row.environment };
  const content = {
    key_id: row.key_id,
    status: row.status,
    trade: input.trade,
    state: input.location.state,
    urgency: input.urgency,
    nte_cents: row.nte_cents,
    reference_id: row.reference_id,
    request_hash: row.request_hash,
    ...(input.quote_id ? { quote_id: input.quote_id } : {}),
  };
  const records = [auditRow({ type: "order", tenant, subject: row.id, content })];
  const best = matches[0];
  if (best) {
    const matchContent = { ...matchFacts(best), estimated_response_minutes: best.responseMinutes };
    const candidates = matches.length;
    records.push(auditRow({ type: "match", tenant, subject: row.id, content: { ...matchContent, candidates } }));
  }
  return records;
}

const noContractorDetail = (input: OrderInput) =>
  `No active ${input.trade} contractor serves ${input.location.state}${input.urgency === "emergency" ? " for emergencies" : ""}. The order is kept and an operator will source one.`;

const noWindowDetail = (input: OrderInput) =>
  `Every active ${input.trade} contractor that serves ${input.location.state} is fully booked (or off) within the ${input.urgency} horizon. The order is kept and assigned as soon as a seat frees.`;

/** Why nobody was assigned: held over the NTE, the pool fully booked, or nobody in the area. */
function reasonOf(input: OrderInput, found: { priced?: Match; booked: boolean; revision: PriceRevisionRow | null }) {
  const { priced, booked, revision } = found;
  if (priced && revision)
    return {
      reason: "over_nte",
      detail: `The best price (${priced.costCents} cents) is over the not-to-exceed of ${input.nte_cents} cents. The order is held for approval; approve its price revision ${revision.id} (approvePriceRevision) to dispatch it, or cancel it.`,
    };
  if (priced && !booked) return { reason: "no_window_available", detail: noWindowDetail(input) };
  return { reason: "no_contractor_in_area", detail: noContractorDetail(input) };
}

const escalation = (
  config: Config,
  input: OrderInput,
  found: { priced?: Match; booked: boolean; revision: PriceRevisionRow | null },
): Schemas["Fulfilment"] => ({
  assigned: false,
  ...reasonOf(input, found),
  escalation_contact: config.escalationContact,
});

/** Where the order's events are sent when it has a callback_url (the writer queues a message per event). */
function webhookOf(input: OrderInput, row: NewRow, base: string): NewOrder["webhook"] {
  if (!input.callback_url) return null;
  const tenant = { account: row.account, environment: row.environment };
  return { orderId: row.id, tenant, url: input.callback_url, base };
}

interface Outcome {
  order: Summary;
  priced?: Match;
  best?: Match;
  booked: boolean;
  revision: PriceRevisionRow | null;
  tracking: Schemas["Tracking"];
  seal: string;
}

/** The 201/202 body (with an escalation when no contractor was assigned) and the first event's note. */
function answerOf(config: Config, input: OrderInput, outcome: Outcome): { body: OrderBody; note: string } {
  const { order, tracking, seal } = outcome;
  if (outcome.best) {
    const assigned = { ...order, status: "pending_dispatch" } as const;
    const body = { created: true, accepted: true, fulfilled: true, order: assigned, tracking, seal } as const;
    return { body, note: "Auto-matched from the active pool." };
  }
  const fulfilment = escalation(config, input, outcome);
  const body = {
    created: true,
    accepted: true,
    fulfilled: false,
    order: { ...order, status: "accepted_pending_fulfilment" },
    fulfilment,
    tracking,
    seal,
  } as const;
  const notes: Record<string, string> = {
    over_nte: "Held: price over NTE.",
    no_window_available: "No free window in the horizon.",
  };
  return { body, note: notes[fulfilment.reason] ?? "No contractor in area." };
}

/** An order the booking rule holds over its NTE asks the customer to approve its price (orders/revision-records.ts). */
function heldRevision(input: OrderInput, row: NewRow, booked: BookingOutcome, now: Date) {
  if (booked.kind !== "hold") return null;
  return heldRevisionOf({ ...row, nte_cents: input.nte_cents! }, booked.match.costCents, now);
}

/** The order's answer body and what to write for it, acting on the booking rule's outcome alone. */
export function prepareOrder(
  config: Config,
  input: OrderInput,
  ctx: InsertContext,
  found: { matches: Match[]; outcome: BookingOutcome; now: Date },
): { body: OrderBody; write: NewOrder } {
  const { matches, outcome: booked, now } = found;
  const priced = booked.match; // assigned at, held at ("hold": for approval) or waiting at ("none")
  const assigned = booked.kind === "assign" ? booked.plan : undefined;
  const best = assigned?.match;
  const order = summaryOf(newId("ord"), input, { priced, assigned: best, booking: assigned?.booking }, now);
  const row = orderRow(input, ctx, order, assigned, now);
  // a held order (over its NTE) records no match; the assigned one is the match recorded
  const records = orderAuditRows(row, input, best ? [best, ...matches.filter((match) => match !== best)] : []);
  const seal = records[0].seal; // known before the insert, so the stored answer is written once
  const base = baseUrlOf(config.publicBaseUrl, ctx.origin);
  const tracking = { status_url: statusUrl(base, order.id), auth: trackingAuth };
  const revision = heldRevision(input, row, booked, now);
  if (revision) records.push(auditRow(revisionAudit(revision, "requested")));
  const outcome = { order, priced, best, booked: Boolean(booked.plan), revision, tracking, seal };
  const { body, note } = answerOf(config, input, outcome);
  // the assigned contractor is offered the job at once, in the same statement (orders/offer-records.ts)
  const offer = best
    ? offerRow(row, best.contractor.id, {
        now,
        respondBy: respondByOf(config.offerDeadlineMinutes, input.urgency, now),
      })
    : null;
  if (offer) records.push(auditRow(offerAudit(offer, "offered")));
  const write = {
    row: { ...row, response_body: JSON.stringify(body) },
    note,
    records,
    webhook: webhookOf(input, row, base),
    booking: assigned ? bookingRow(order.id, assigned.booking) : null,
    offer,
    revision,
  };
  return { body, write };
}
