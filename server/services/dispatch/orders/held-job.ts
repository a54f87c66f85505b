// "The contractor holds the job": the one rule every operation on a contractor's jobs checks (its accepted offer
// is the order's newest, and the order still names it), under the order's row lock.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderOfferRow, OrderRow } from "../../../db/tables/dispatch.js";
import type { ContractorCaller } from "../../access/principal.js";
import { DomainError } from "../../errors.js";

/** The 404 of every operation on a job the caller does not hold (or whose order does not name it). */
export const jobNotFound = (id: string) =>
  new DomainError("not_found", "not_found", `No job ${id} held by this contractor.`);

/** "The order's newest offer is this accepted one and it still names its contractor", on order_offers `o`. */
export function stillHeld(query: Knex.QueryBuilder): void {
  void query
    .whereRaw(
      `exists (select 1 from orders r where r.id = o.order_id and r.contractor_id = o.contractor_id
         and r.status <> 'pending_dispatch')`,
    )
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

export interface LockedJob {
  row: OrderRow;
  /** The caller's accepted offer while it holds the job; undefined when it does not (not accepted, moved on). */
  offer: OrderOfferRow | undefined;
}

/** The order `id` under its row lock when it names the caller (else undefined), with the caller's accepted offer. */
export async function lockJob(
  trx: Knex.Transaction,
  caller: ContractorCaller,
  id: string,
): Promise<LockedJob | undefined> {
  const row = await trx("orders")
    .where({ id, contractor_id: caller.contractorId, environment: caller.environment })
    .forUpdate()
    .first();
  return row && { row, offer: await heldOffer(trx, caller, id) };
}

/** Which of the offers (any status) are held jobs now: one query, none when no offer was accepted. */
export async function heldOfferIds(db: Db | Knex.Transaction, offers: OrderOfferRow[]): Promise<Set<string>> {
  const accepted = offers.filter((offer) => offer.status === "accepted").map((offer) => offer.id);
  if (!accepted.length) return new Set();
  const query = db("order_offers as o").whereIn("o.id", accepted).select<{ id: string }[]>("o.id");
  stillHeld(query);
  return new Set((await query).map((row) => row.id));
}
