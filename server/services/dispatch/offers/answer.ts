// The contractor's answers, accept and decline, each exactly once per offer across instances: the order's row
// lock first, then a conditional UPDATE of the offer (docs/decisions.md#the-contractor-side-modules).
import { nowDate } from "../../shared/clock.js";
import type { Knex } from "knex";
import type { OrderOfferRow } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import type { ContractorCaller } from "../../access/principal.js";
import { DomainError } from "../../errors.js";
import type { Schemas } from "../../../types/contract.js";
import { applyEvent } from "../orders/apply-event.js";
import { offerAudit } from "../orders/offer-records.js";
import { reOffer, type Answering } from "../orders/reoffer.js";
import { offerViews, type OfferView } from "../orders/offer-view.js";

export type DeclineInput = Schemas["DeclineOfferRequest"];

const offerNotFound = (id: string) => new DomainError("not_found", "not_found", `No offer ${id} for this contractor.`);

function closedError(offer: OrderOfferRow, now: Date): DomainError {
  const expired = offer.status === "expired" || (offer.status === "offered" && new Date(offer.deadline_at) <= now);
  if (expired)
    return new DomainError(
      "conflict",
      "offer_expired",
      `Offer ${offer.id} expired at ${new Date(offer.deadline_at).toISOString()}; the job goes to the next contractor.`,
    );
  return new DomainError("conflict", "offer_closed", `Offer ${offer.id} is ${offer.status}; it takes no other answer.`);
}

/** The caller's own offer (in its environment), its order's row locked first. */
async function lockOwnOffer(trx: Knex.Transaction, caller: ContractorCaller, id: string): Promise<OrderOfferRow> {
  const offer = await trx("order_offers")
    .where({ id, contractor_id: caller.contractorId, environment: caller.environment })
    .first();
  if (!offer) throw offerNotFound(id);
  await trx("orders").where({ id: offer.order_id }).forUpdate().first("id");
  return offer;
}

/** Closes the offer while it is open and in time; else the 409 saying why. */
async function close(trx: Knex.Transaction, offer: OrderOfferRow, change: Partial<OrderOfferRow>, now: Date) {
  const [closed] = await trx("order_offers")
    .where({ id: offer.id, status: "offered" })
    .where("deadline_at", ">", now)
    .update({ ...change, responded_at: now })
    .returning("*");
  if (!closed) throw closedError((await trx("order_offers").where({ id: offer.id }).first())!, now);
  return closed;
}

export type { Answering } from "../orders/reoffer.js";

/** 409 unless the contractor is active (read FOR SHARE: a deactivation waits for this transaction). */
async function assertActive(trx: Knex.Transaction, contractorId: string): Promise<void> {
  const contractor = await trx("contractors").where({ id: contractorId }).forShare().first("active");
  if (contractor?.active) return;
  throw new DomainError(
    "conflict",
    "contractor_inactive",
    `Contractor ${contractorId} is deactivated: it accepts no offer, and its open offers go to other contractors.`,
  );
}

/** acceptOffer: 404 for another contractor's offer, 409 offer_expired / offer_closed / contractor_inactive. */
export async function acceptOffer(deps: Answering, caller: ContractorCaller, id: string, base: string) {
  const now = nowDate();
  const view = await deps.db.transaction(async (trx) => {
    const offer = await lockOwnOffer(trx, caller, id);
    const accepted = await close(trx, offer, { status: "accepted" }, now);
    await assertActive(trx, offer.contractor_id);
    await appendAudit(trx, offerAudit(accepted, "accepted"));
    const others = await trx("order_offers")
      .where({ order_id: offer.order_id })
      .whereNot({ contractor_id: offer.contractor_id })
      .first("id");
    const input = { status: "dispatched" as const, note: "Accepted by the contractor." };
    await applyEvent(trx, offer.order_id, input, null, base, { reassigned: Boolean(others) });
    return (await offerViews(trx, [accepted]))[0];
  });
  deps.eventsWritten();
  return view;
}

/** declineOffer: the same 404 and 409s; the job is offered to the next contractor, or queued again. */
export async function declineOffer(
  deps: Answering,
  caller: ContractorCaller,
  request: { id: string; input: DeclineInput; base: string },
): Promise<OfferView> {
  const { id, input, base } = request;
  const now = nowDate();
  const declined = await deps.db.transaction(async (trx) => {
    const offer = await lockOwnOffer(trx, caller, id);
    const change = { status: "declined" as const, decline_reason: input.reason, note: input.note ?? null };
    const closed = await close(trx, offer, change, now);
    await appendAudit(trx, offerAudit(closed, "declined", { reason: input.reason }));
    return closed;
  });
  await reOffer(deps, declined.order_id, base).finally(deps.eventsWritten);
  const [view] = await offerViews(deps.db, [declined]);
  return view;
}
