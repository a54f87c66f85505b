// What a contractor sees of an offer: the job, never the customer. Before it accepts, the job's place is its city,
// state and ZIP (enough to judge the trip); the street address and site name come with the accept. The order's
// account, key, callback_url and reference_id are not read into the view at all.
import type { Db } from "../../../db/knex.js";
import type { OrderOfferRow, OrderRow } from "../../../db/tables/dispatch.js";
import type { Schemas } from "../../../types/contract.js";
import { arrivalWindowOf } from "../orders/view.js";

export type OfferView = Schemas["ContractorOffer"];

/** The order columns an offer's view reads (nothing that names the customer). */
export const jobColumns = [
  "id",
  "trade",
  "urgency",
  "description",
  "location",
  "state",
  "status",
  "quoted_cost_cents",
  "arrival_window_start",
  "arrival_window_end",
] as const;
export type JobRow = Pick<OrderRow, (typeof jobColumns)[number]>;

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** The job's place: city, state and ZIP until the offer is accepted, all of it after. */
function locationOf(job: JobRow, accepted: boolean): Schemas["OrderLocation"] {
  if (accepted) return job.location;
  const { state, city, zip } = job.location;
  return { state, ...(city ? { city } : {}), ...(zip ? { zip } : {}) };
}

export function offerView(offer: OrderOfferRow, job: JobRow): OfferView {
  return {
    id: offer.id,
    status: offer.status,
    offered_at: iso(offer.created_at)!,
    respond_by: iso(offer.deadline_at)!,
    responded_at: iso(offer.responded_at),
    decline_reason: (offer.decline_reason as OfferView["decline_reason"]) ?? null,
    job: {
      order_id: job.id,
      trade: job.trade,
      urgency: job.urgency,
      description: job.description,
      location: locationOf(job, offer.status === "accepted"),
      status: job.status,
      quoted_cost_cents: job.quoted_cost_cents,
      arrival_window: arrivalWindowOf(job),
    },
  };
}

/** The views of offers, their jobs read in one query. */
export async function offerViews(db: Db, offers: OrderOfferRow[]): Promise<OfferView[]> {
  if (!offers.length) return [];
  const ids = [...new Set(offers.map((offer) => offer.order_id))];
  const jobs = await db("orders").whereIn("id", ids).select<JobRow[]>(jobColumns);
  const byId = new Map(jobs.map((job) => [job.id, job]));
  return offers.map((offer) => offerView(offer, byId.get(offer.order_id)!));
}
