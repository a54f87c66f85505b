// The offers' part of the evals (dispatch/evals/index.ts), one grouped query per figure. Acceptance counts only
// offers that ended in an answer or an expiry (an open or withdrawn offer says nothing about the contractor).
import type { Db } from "../../../db/knex.js";
import { ofWindowOrders } from "./window-rows.js";

export interface OfferFacts {
  /** Offers accepted, and offers accepted, declined or expired. */
  accepted: number;
  concluded: number;
  /** Offer to acceptance, in ms, ascending. */
  acceptMs: number[];
  /** Orders with at least one offer, and their offers beyond the first. */
  offeredOrders: number;
  reoffers: number;
}

const windowOffers = (db: Db, since: Date) => ofWindowOrders(db, "order_offers", since);

export async function offerFacts(db: Db, since: Date): Promise<OfferFacts> {
  const [byStatus, accepted, perOrder] = await Promise.all([
    windowOffers(db, since)
      .whereIn("order_offers.status", ["accepted", "declined", "expired"])
      .groupBy("order_offers.status")
      .select({ status: "order_offers.status" })
      .count({ count: "*" }),
    windowOffers(db, since)
      .where("order_offers.status", "accepted")
      .select<{ created_at: Date | string; responded_at: Date | string }[]>(
        "order_offers.created_at",
        "order_offers.responded_at",
      ),
    windowOffers(db, since).countDistinct({ orders: "order_offers.order_id" }).count({ offers: "order_offers.id" }),
  ]);
  const counted = new Map(byStatus.map((row) => [String(row.status), Number(row.count)]));
  const acceptMs = accepted
    .map((row) => new Date(row.responded_at).getTime() - new Date(row.created_at).getTime())
    .sort((a, b) => a - b);
  const offeredOrders = Number(perOrder[0]?.orders ?? 0);
  return {
    accepted: counted.get("accepted") ?? 0,
    concluded: [...counted.values()].reduce((sum, n) => sum + n, 0),
    acceptMs,
    offeredOrders,
    reoffers: Number(perOrder[0]?.offers ?? 0) - offeredOrders,
  };
}
