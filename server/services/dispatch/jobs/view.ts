// What a contractor sees of a job it holds: its accepted offer's view of the order (offers/view.ts, the whole
// location, never the customer) with the order's ETA and final cost. "Holds" is one rule, used by the list and by
// every report: the order's newest offer is the caller's and accepted, and the order still names the caller; a job
// given back (unable_to_attend), re-offered or moved on by an operator is no longer the caller's.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderOfferRow, OrderRow } from "../../../db/tables/dispatch.js";
import type { ContractorCaller } from "../../access/principal.js";
import type { Schemas } from "../../../types/contract.js";
import { etaView } from "../orders/eta.js";
import { jobColumns, offerView, type JobRow } from "../offers/view.js";

export type JobView = Schemas["ContractorJob"];

/** The order columns a job's view reads (still nothing that names the customer). */
export const heldJobColumns = [...jobColumns, "eta_at", "eta_updated_at", "eta_source", "final_cost_cents"] as const;
export type HeldJobRow = JobRow & Pick<OrderRow, "eta_at" | "eta_updated_at" | "eta_source" | "final_cost_cents">;

export function jobView(offer: OrderOfferRow, job: HeldJobRow): JobView {
  return {
    offer_id: offer.id,
    accepted_at: new Date(offer.responded_at ?? offer.created_at).toISOString(),
    eta: etaView(job),
    final_cost_cents: job.final_cost_cents ?? null,
    job: offerView(offer, job).job,
  };
}

/** The condition "the order's newest offer is this accepted one and the order still names its contractor", on a
 * query of order_offers `o`. */
export function stillHeld(query: Knex.QueryBuilder): void {
  void query
    .whereRaw("exists (select 1 from orders r where r.id = o.order_id and r.contractor_id = o.contractor_id)")
    .whereRaw(
      `not exists (select 1 from order_offers n where n.order_id = o.order_id
         and (n.created_at > o.created_at or (n.created_at = o.created_at and n.id > o.id)))`,
    );
}

/** The caller's accepted offer of the order while it holds the job; else undefined (the 404 of every report). */
export async function heldOffer(
  db: Db | Knex.Transaction,
  caller: ContractorCaller,
  orderId: string,
): Promise<OrderOfferRow | undefined> {
  const query = db("order_offers as o")
    .where({
      "o.order_id": orderId,
      "o.contractor_id": caller.contractorId,
      "o.environment": caller.environment,
      "o.status": "accepted",
    })
    .first<OrderOfferRow | undefined>("o.*");
  stillHeld(query);
  return query;
}

/** The views of held offers, their orders read in one query. */
export async function jobViews(db: Db | Knex.Transaction, offers: OrderOfferRow[]): Promise<JobView[]> {
  if (!offers.length) return [];
  const ids = [...new Set(offers.map((offer) => offer.order_id))];
  const jobs = await db("orders").whereIn("id", ids).select<HeldJobRow[]>(heldJobColumns);
  const byId = new Map(jobs.map((job) => [job.id, job]));
  return offers.map((offer) => jobView(offer, byId.get(offer.order_id)!));
}
