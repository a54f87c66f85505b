// What a contractor sees of a job it holds (held.ts): its accepted offer's view of the order (offers/view.ts, the
// whole location, never the customer) with the order's ETA and final cost.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderOfferRow, OrderRow } from "../../../db/tables/dispatch.js";
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

/** The views of held offers, their orders read in one query. */
export async function jobViews(db: Db | Knex.Transaction, offers: OrderOfferRow[]): Promise<JobView[]> {
  if (!offers.length) return [];
  const ids = [...new Set(offers.map((offer) => offer.order_id))];
  const jobs = await db("orders").whereIn("id", ids).select<HeldJobRow[]>(heldJobColumns);
  const byId = new Map(jobs.map((job) => [job.id, job]));
  return offers.map((offer) => jobView(offer, byId.get(offer.order_id)!));
}
