// The offers' part of the dispatcher's sweep (orders/dispatcher.ts): offers past their deadline expire (a
// conditional UPDATE: of several instances sweeping at once, each offer expires once, and an accept that won the
// row first keeps it), and each expired offer's job is re-offered (reoffer.ts). Orders left waiting without an open
// offer after a decline, an expiry or a contractor giving its job back (jobs/report.ts; an instance that stopped
// between the two steps) are re-offered too: pending_dispatch with an accepted offer means only the latter.
import { nowDate } from "../../shared/clock.js";
import { appendAudit } from "../../audit/entries.js";
import { offerAudit } from "./records.js";
import { reOffer, type Reoffering } from "../orders/reoffer.js";

/** Expires every due offer (audited); the orders whose offers expired. */
async function expireDue(deps: Reoffering, now: Date): Promise<string[]> {
  return deps.db.transaction(async (trx) => {
    const expired = await trx("order_offers")
      .where({ status: "offered" })
      .where("deadline_at", "<=", now)
      .update({ status: "expired", responded_at: now })
      .returning("*");
    for (const offer of expired) await appendAudit(trx, offerAudit(offer, "expired"));
    return expired.map((offer) => offer.order_id);
  });
}

/** Orders waiting for an answer nobody holds: an offer was declined, expired or given back, and none is open. */
async function stranded(db: Reoffering["db"]): Promise<string[]> {
  const rows = await db("orders")
    .where("orders.status", "pending_dispatch")
    .whereRaw(
      "exists (select 1 from order_offers f where f.order_id = orders.id and f.status in ('declined', 'expired', 'accepted'))",
    )
    .whereRaw("not exists (select 1 from order_offers f where f.order_id = orders.id and f.status = 'offered')")
    .limit(100)
    .select<{ id: string }[]>("orders.id");
  return rows.map((row) => row.id);
}

/** Expires due offers and re-offers their jobs; the offers expired plus the orders moved (0: nothing changed). */
export async function sweepOffers(deps: Reoffering, base: string): Promise<number> {
  const due = await expireDue(deps, nowDate());
  const waiting = await stranded(deps.db);
  let moved = 0;
  for (const orderId of new Set([...due, ...waiting]))
    if ((await reOffer(deps, orderId, base)) !== "unchanged") moved++;
  return moved + due.length;
}
