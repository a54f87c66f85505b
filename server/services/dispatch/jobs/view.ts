// What a contractor sees of a job it holds (orders/held-job.ts): its offer's view (orders/offer-view.ts, never the
// customer) with ETA, final cost, the last price revision it asked, and `next_steps` (steps.ts).
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderOfferRow, OrderRow } from "../../../db/tables/dispatch.js";
import type { Schemas } from "../../../types/contract.js";
import { etaView } from "../orders/eta.js";
import { jobColumns, offerView, type JobRow } from "../orders/offer-view.js";
import { contractorRevisions, type PriceRevisionView } from "../orders/revision-records.js";
import { heldOfferIds } from "../orders/held-job.js";
import { jobSteps } from "./steps.js";

export type JobView = Schemas["ContractorJob"];

/** The order columns a job's view reads (still nothing that names the customer). */
export const heldJobColumns = [...jobColumns, "eta_at", "eta_updated_at", "eta_source", "final_cost_cents"] as const;
export type HeldJobRow = JobRow & Pick<OrderRow, "eta_at" | "eta_updated_at" | "eta_source" | "final_cost_cents">;

/** What a job's view reads beside the order: whether the offer's contractor holds it, and its last revision. */
interface JobFacts {
  held: boolean;
  revision: PriceRevisionView | null;
}

export function jobView(offer: OrderOfferRow, job: HeldJobRow, facts: JobFacts): JobView {
  return {
    offer_id: offer.id,
    accepted_at: new Date(offer.responded_at ?? offer.created_at).toISOString(),
    eta: etaView(job),
    final_cost_cents: job.final_cost_cents ?? null,
    price_revision: facts.revision,
    job: offerView(offer, job, facts.held).job,
    next_steps: facts.held ? jobSteps(job.status) : [],
  };
}

/** The views of accepted offers: their orders, which are held and the contractors' revisions, a query each. */
export async function jobViews(db: Db | Knex.Transaction, offers: OrderOfferRow[]): Promise<JobView[]> {
  if (!offers.length) return [];
  const ids = [...new Set(offers.map((offer) => offer.order_id))];
  const jobs = await db("orders").whereIn("id", ids).select<HeldJobRow[]>(heldJobColumns);
  const byId = new Map(jobs.map((job) => [job.id, job]));
  const held = await heldOfferIds(db, offers);
  const revisions = await contractorRevisions(db, ids);
  return offers.map((offer) =>
    jobView(offer, byId.get(offer.order_id)!, {
      held: held.has(offer.id),
      revision: revisions.get(`${offer.order_id}|${offer.contractor_id}`) ?? null,
    }),
  );
}
