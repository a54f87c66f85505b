// What a contractor sees of an offer: the job, never the customer. City, state and ZIP before it accepts; street,
// site and live status only while it holds the job (orders/held-job.ts); the terms it was offered, kept on the offer.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderOfferRow, OrderRow } from "../../../db/tables/dispatch.js";
import type { Schemas } from "../../../types/contract.js";
import { arrivalWindowOf } from "./arrival-window.js";
import { heldOfferIds } from "./held-job.js";
import { stateTimeZone } from "../state-zones.js";

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
  "nte_cents",
] as const;
export type JobRow = Pick<OrderRow, (typeof jobColumns)[number]>;

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** The job's place: all of it while the contractor holds the job, else its city, state and ZIP. */
function locationOf(job: JobRow, held: boolean): Schemas["OrderLocation"] {
  if (held) return job.location;
  const { state, city, zip } = job.location;
  return { state, ...(city ? { city } : {}), ...(zip ? { zip } : {}) };
}

/** The price, window and NTE the offer shows: the job's own while held, else the offer's. */
const termsOf = (offer: OrderOfferRow, job: JobRow, held: boolean) => {
  const terms = held ? job : offer;
  return {
    quoted_cost_cents: terms.quoted_cost_cents ?? null,
    arrival_window: arrivalWindowOf({ ...terms, state: job.state }),
    nte_cents: terms.nte_cents ?? null,
  };
};

/** `held`: whether the contractor holds the job now (orders/held-job.ts). */
export function offerView(offer: OrderOfferRow, job: JobRow, held: boolean): OfferView {
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
      location: locationOf(job, held),
      status: held ? job.status : "pending_dispatch",
      ...termsOf(offer, job, held),
      time_zone: stateTimeZone(job.state),
    },
  };
}

/** The views of offers, their jobs read in one query (and which are held, in one more when any was accepted). */
export async function offerViews(db: Db | Knex.Transaction, offers: OrderOfferRow[]): Promise<OfferView[]> {
  if (!offers.length) return [];
  const ids = [...new Set(offers.map((offer) => offer.order_id))];
  const jobs = await db("orders").whereIn("id", ids).select<JobRow[]>(jobColumns);
  const byId = new Map(jobs.map((job) => [job.id, job]));
  const held = await heldOfferIds(db, offers);
  return offers.map((offer) => offerView(offer, byId.get(offer.order_id)!, held.has(offer.id)));
}
