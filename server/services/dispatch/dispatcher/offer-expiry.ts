// The offers' part of the dispatcher's sweep: offers past their deadline expire once across instances, and their
// jobs are re-offered (reoffer.ts); waiting orders without an open offer are re-offered too.
import type { Knex } from "knex";
import type { Tenant } from "../../access/principal.js";
import type { OrderOfferRow } from "../../../db/tables/dispatch.js";
import { nowDate } from "../../shared/clock.js";
import { onTenantClock, scopeOf, tenantNow } from "../../shared/test-clock.js";
import { appendAudit } from "../../audit/entries.js";
import { offerAudit } from "../orders/offer-records.js";
import { recordOfferEvent } from "../orders/contractor-events.js";
import { reOffer, type Reoffering } from "../orders/reoffer.js";
import { isolated, type OrderFailed } from "../orders/order-failures.js";

type OrderOfTenant = Tenant & { id: string };

/** Closes the open offers `which` picks as `step` (audited), each at its tenant's time; their orders. */
async function closeOpen(
  deps: Reoffering,
  close: { step: "expired" | "withdrawn"; which: (query: Knex.QueryBuilder, at: Knex.Raw) => Knex.QueryBuilder },
  account?: string,
): Promise<OrderOfTenant[]> {
  return deps.db.transaction(async (trx) => {
    const at = tenantNow(trx, "order_offers", nowDate());
    const closed = await trx("order_offers")
      .where({ status: "offered" })
      .modify(scopeOf("order_offers", account))
      .modify((query: Knex.QueryBuilder) => void close.which(query, at))
      .update({ status: close.step, responded_at: at as unknown as Date }) // each offer at its tenant's time
      .returning<OrderOfferRow[]>("*");
    for (const offer of closed) {
      await appendAudit(trx, offerAudit(offer, close.step));
      const why = close.step === "expired" ? "expired" : "contractor_inactive";
      await recordOfferEvent(trx, offer, why, new Date(offer.responded_at!));
    }
    return closed.map((offer) => ({ id: offer.order_id, account: offer.account, environment: offer.environment }));
  });
}

const expireDue = (deps: Reoffering, account?: string) =>
  closeOpen(deps, { step: "expired", which: (query, at) => query.where("deadline_at", "<=", at) }, account);

const withdrawInactive = (deps: Reoffering, account?: string) =>
  closeOpen(
    deps,
    {
      step: "withdrawn",
      which: (query) => query.whereRaw("contractor_id in (select id from contractors where not active)"),
    },
    account,
  );

const pageSize = 100;

/** Orders waiting for an answer nobody holds, one page by id after `after` (failing re-offers never hide the rest). */
async function stranded(db: Reoffering["db"], account: string | undefined, after: string | null) {
  const query = db("orders")
    .where("orders.status", "pending_dispatch")
    .modify((scoped) => {
      if (account) void scoped.where("orders.account", account).where("orders.environment", "test");
    })
    .whereRaw(
      "exists (select 1 from order_offers f where f.order_id = orders.id and f.status in ('declined', 'expired', 'accepted', 'withdrawn'))",
    )
    .whereRaw("not exists (select 1 from order_offers f where f.order_id = orders.id and f.status = 'offered')")
    .orderBy("orders.id")
    .limit(pageSize)
    .select<OrderOfTenant[]>("orders.id", "orders.account", "orders.environment");
  if (after) void query.where("orders.id", ">", after);
  return query;
}

/** Re-offers each order's job on its tenant's clock; how many moved. A failure is reported and skipped. */
async function reOfferEach(deps: Reoffering, pass: { base: string; failed: OrderFailed }, orders: OrderOfTenant[]) {
  let moved = 0;
  for (const order of orders) {
    const work = () => onTenantClock(deps.db, order, () => reOffer(deps, order.id, pass.base));
    const outcome = await isolated(pass.failed, "reoffer", order, work);
    if (outcome !== undefined && outcome !== "unchanged") moved++;
  }
  return moved;
}

/** Withdraws and expires offers, re-offering their jobs, then the stranded orders'; the offers and orders moved. */
export async function sweepOffers(
  deps: Reoffering,
  pass: { base: string; failed: OrderFailed },
  account?: string,
): Promise<number> {
  const closed = [...(await withdrawInactive(deps, account)), ...(await expireDue(deps, account))];
  const due = new Map(closed.map((order) => [order.id, order]));
  let moved = await reOfferEach(deps, pass, [...due.values()]);
  for (let after: string | null = null; ;) {
    const page: OrderOfTenant[] = await stranded(deps.db, account, after);
    moved += await reOfferEach(
      deps,
      pass,
      page.filter((order) => !due.has(order.id)),
    );
    if (page.length < pageSize) return moved + closed.length;
    after = page[page.length - 1].id;
  }
}
