// An offer's rows: the offer (opened with the assignment that makes it) and its audit lifecycle under the order's
// tenant. An order leaving pending_dispatch other than by the contractor's accept withdraws its open offer.
import type { Knex } from "knex";
import type { Config } from "../../../config.js";
import type { OrderOfferRow, OrderRow } from "../../../db/tables/dispatch.js";
import { appendAudit, type AuditEntry } from "../../audit/entries.js";
import { newId } from "../../shared/ids.js";
import { recordOfferEvent } from "./contractor-events.js";

/** Minutes a contractor has to answer, by the job's urgency (OFFER_DEADLINE_*_MINUTES). */
export type OfferDeadlines = Config["offerDeadlineMinutes"];

export const respondByOf = (deadlines: OfferDeadlines, urgency: OrderRow["urgency"], now: Date): Date =>
  new Date(now.getTime() + deadlines[urgency] * 60_000);

/** The order as the offer is made: its keys and the terms (price, window, NTE) booked for the offer's contractor. */
type OrderKeys = Pick<
  OrderRow,
  "id" | "account" | "environment" | "quoted_cost_cents" | "nte_cents" | "arrival_window_start" | "arrival_window_end"
>;

/** A new open offer of the order to the contractor, on the terms the order was just booked at for it. */
export const offerRow = (order: OrderKeys, contractorId: string, at: { now: Date; respondBy: Date }) => ({
  id: newId("ofr"),
  order_id: order.id,
  contractor_id: contractorId,
  account: order.account,
  environment: order.environment,
  status: "offered" as const,
  created_at: at.now,
  deadline_at: at.respondBy,
  quoted_cost_cents: order.quoted_cost_cents,
  nte_cents: order.nte_cents,
  arrival_window_start: order.arrival_window_start,
  arrival_window_end: order.arrival_window_end,
});

/** The columns offerRow fills (the order writer inserts exactly these). */
export const offerColumns = [
  "id",
  "order_id",
  "contractor_id",
  "account",
  "environment",
  "status",
  "created_at",
  "deadline_at",
  "quoted_cost_cents",
  "nte_cents",
  "arrival_window_start",
  "arrival_window_end",
] as const;

type Step = "offered" | Exclude<OrderOfferRow["status"], "offered">;

/** The audit entry of one step of an offer's life, under the order's tenant, about the order. */
export function offerAudit(
  offer: Pick<OrderOfferRow, "id" | "order_id" | "contractor_id" | "account" | "environment" | "deadline_at">,
  step: Step,
  extra: Record<string, unknown> = {},
): AuditEntry {
  return {
    type: "offer",
    tenant: { account: offer.account, environment: offer.environment },
    subject: offer.order_id,
    content: {
      offer_id: offer.id,
      contractor_id: offer.contractor_id,
      step,
      respond_by: new Date(offer.deadline_at).toISOString(),
      ...extra,
    },
  };
}

/** Opens an offer inside the assignment's transaction (audited). */
export async function openOffer(
  trx: Knex.Transaction,
  order: OrderKeys,
  contractorId: string,
  at: { now: Date; respondBy: Date },
): Promise<void> {
  const row = offerRow(order, contractorId, at);
  await trx("order_offers").insert(row);
  await appendAudit(trx, offerAudit(row, "offered"));
  await recordOfferEvent(trx, row, "offered", at.now);
}

/** Withdraws the order's open offer, if any (the order moved on without the contractor's answer). */
export async function withdrawOpenOffer(
  trx: Knex.Transaction,
  orderId: string,
  now: Date,
  movedTo: string,
): Promise<void> {
  const withdrawn = await trx("order_offers")
    .where({ order_id: orderId, status: "offered" })
    .update({ status: "withdrawn", responded_at: now })
    .returning("*");
  for (const offer of withdrawn) {
    await appendAudit(trx, offerAudit(offer, "withdrawn"));
    await recordOfferEvent(trx, offer, movedTo === "cancelled" ? "cancelled" : "reassigned", now);
  }
}
