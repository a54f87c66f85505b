// The contractor's answers: accept and decline, each exactly once per offer across instances. Every path that
// touches an offer locks its order's row first (apply-event.ts, reoffer.ts, here), then the offer; the answer is a
// conditional UPDATE of the offer (still `offered`, deadline not passed), so of two accepts, an accept and a
// decline, or an accept and the expiry sweep, exactly one changes the row and the other gets 409. The accept and the
// order's pending_dispatch -> dispatched step (applyEvent: the one transition path, with its NTE rule) commit
// together: no job is dispatched without an accepted offer through this path, and no accepted offer is left
// without its job. A decline commits first, then the job is re-offered (reoffer.ts); should that step fail, the
// sweep finds the order waiting without an open offer and re-offers it.
import { nowDate } from "../../shared/clock.js";
import type { Knex } from "knex";
import type { OrderOfferRow } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import type { ContractorCaller } from "../../access/principal.js";
import { DomainError } from "../../errors.js";
import type { Schemas } from "../../../types/contract.js";
import { applyEvent } from "../orders/apply-event.js";
import { offerAudit } from "./records.js";
import { reOffer, type Reoffering } from "../orders/reoffer.js";
import { jobColumns, offerView, offerViews, type JobRow, type OfferView } from "./view.js";

export type DeclineInput = Schemas["DeclineOfferRequest"];

const offerNotFound = (id: string) => new DomainError("not_found", "not_found", `No offer ${id} for this contractor.`);

/** Why an offer can no longer be answered. */
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

export interface Answering extends Reoffering {
  /** Told after order events are written (the feed sequencer's nudge). */
  eventsWritten: () => void;
}

/** acceptOffer: 404 for another contractor's (or environment's) offer, 409 offer_expired / offer_closed. */
export async function acceptOffer(deps: Answering, caller: ContractorCaller, id: string, base: string) {
  const now = nowDate();
  const view = await deps.db.transaction(async (trx) => {
    const offer = await lockOwnOffer(trx, caller, id);
    const accepted = await close(trx, offer, { status: "accepted" }, now);
    await appendAudit(trx, offerAudit(accepted, "accepted"));
    const others = await trx("order_offers")
      .where({ order_id: offer.order_id })
      .whereNot({ contractor_id: offer.contractor_id })
      .first("id");
    const input = { status: "dispatched" as const, note: "Accepted by the contractor." };
    await applyEvent(trx, offer.order_id, input, null, base, { reassigned: Boolean(others) });
    const job = await trx("orders").where({ id: offer.order_id }).first<JobRow>(jobColumns);
    return offerView(accepted, job);
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
