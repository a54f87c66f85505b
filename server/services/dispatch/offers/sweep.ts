// The offers' part of the dispatcher's sweep (orders/dispatcher.ts): offers past their deadline expire (a
// conditional UPDATE: of several instances sweeping at once, each offer expires once, and an accept that won the
// row first keeps it), and each expired offer's job is re-offered (reoffer.ts). Orders left waiting without an open
// offer after a decline, an expiry or a contractor giving its job back (jobs/report.ts; an instance that stopped
// between the two steps) are re-offered too: pending_dispatch with an accepted offer means only the latter.
// A test order's offer expires by its account's clock (orders/test-clock.ts), and its re-offer runs on that clock.
import type { Tenant } from "../../access/principal.js";
import type { OrderOfferRow } from "../../../db/tables/dispatch.js";
import { nowDate } from "../../shared/clock.js";
import { onTenantClock, scopeOf, tenantNow } from "../orders/test-clock.js";
import { appendAudit } from "../../audit/entries.js";
import { offerAudit } from "./records.js";
import { reOffer, type Reoffering } from "../orders/reoffer.js";

type OrderOfTenant = Tenant & { id: string };

/** Expires every due offer (audited), each at its tenant's time; the orders whose offers expired. `account`: only
 * that account's test offers. */
async function expireDue(deps: Reoffering, wall: Date, account?: string): Promise<OrderOfTenant[]> {
  return deps.db.transaction(async (trx) => {
    const at = tenantNow(trx, "order_offers", wall);
    const expired = await trx("order_offers")
      .where({ status: "offered" })
      .modify(scopeOf("order_offers", account))
      .where("deadline_at", "<=", at)
      .update({ status: "expired", responded_at: at as unknown as Date }) // each offer at its tenant's time
      .returning<OrderOfferRow[]>("*");
    for (const offer of expired) await appendAudit(trx, offerAudit(offer, "expired"));
    return expired.map((offer) => ({ id: offer.order_id, account: offer.account, environment: offer.environment }));
  });
}

/** Orders waiting for an answer nobody holds: an offer was declined, expired or given back, and none is open. */
async function stranded(db: Reoffering["db"], account?: string): Promise<OrderOfTenant[]> {
  return db("orders")
    .where("orders.status", "pending_dispatch")
    .modify((query) => {
      if (account) void query.where("orders.account", account).where("orders.environment", "test");
    })
    .whereRaw(
      "exists (select 1 from order_offers f where f.order_id = orders.id and f.status in ('declined', 'expired', 'accepted'))",
    )
    .whereRaw("not exists (select 1 from order_offers f where f.order_id = orders.id and f.status = 'offered')")
    .limit(100)
    .select<OrderOfTenant[]>("orders.id", "orders.account", "orders.environment");
}

/** Expires due offers and re-offers their jobs; the offers expired plus the orders moved (0: nothing changed).
 * `account`: only that account's test offers and orders (an advance of its clock). */
export async function sweepOffers(deps: Reoffering, base: string, account?: string): Promise<number> {
  const due = await expireDue(deps, nowDate(), account);
  const waiting = await stranded(deps.db, account);
  const orders = new Map([...due, ...waiting].map((order) => [order.id, order]));
  let moved = 0;
  for (const order of orders.values())
    if ((await onTenantClock(deps.db, order, () => reOffer(deps, order.id, base))) !== "unchanged") moved++;
  return moved + due.length;
}
