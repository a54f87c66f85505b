// "The contractor holds the job": one rule for every operation on a contractor's jobs. The order's newest offer is
// the caller's and accepted, and the order still names the caller (in the caller's environment); a job given back
// (unable_to_attend), re-offered or moved on by an operator is no longer the caller's. The list of jobs applies it
// as a condition (`stillHeld`); updateJobStatus and requestPriceRevision take it with the order's row lock
// (`lockJob`), the lock every path that changes the order takes, so what they decide on cannot move under them.
// Each operation keeps its own answers: an order that does not name the caller is 404 to both; one that names it
// without the caller holding it (an offer not accepted yet) is 404 to a report and 409 order_not_revisable to a
// revision, as the contract says of each.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { OrderOfferRow, OrderRow } from "../../../db/tables/dispatch.js";
import type { ContractorCaller } from "../../access/principal.js";
import { DomainError } from "../../errors.js";

/** The 404 of every operation on a job the caller does not hold (or whose order does not name it). */
export const jobNotFound = (id: string) =>
  new DomainError("not_found", "not_found", `No job ${id} held by this contractor.`);

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

/** An order that names the caller, under its row lock, with the caller's accepted offer of it. */
export interface LockedJob {
  row: OrderRow;
  /** The caller's accepted offer while it holds the job; undefined when it does not (not accepted, moved on). */
  offer: OrderOfferRow | undefined;
}

/** The order `id` under its row lock when it names the caller in the caller's environment (else undefined), with the
 * caller's accepted offer while it holds the job. */
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
