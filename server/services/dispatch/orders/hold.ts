// Holding an order at a price over its NTE, as creation holds one: it keeps the price and gets the pending price
// revision the customer approves to release it; sweeps then leave it alone (isHeldOverNte).
import type { Db } from "../../../db/knex.js";
import type { Match } from "../matching.js";
import { nowDate } from "../../shared/clock.js";
import { openHeldRevision } from "./revision-records.js";

/** Holds the unassigned, unpriced order at the match's price; whether it did (another instance may have first). */
export async function holdAtPrice(db: Db, id: string, match: Match, base: string): Promise<boolean> {
  const now = nowDate();
  return db.transaction(async (trx) => {
    const [priced] = await trx("orders")
      .where({ id, status: "accepted_pending_fulfilment" })
      .whereNull("quoted_cost_cents")
      .whereNotNull("nte_cents")
      .update({ quoted_cost_cents: match.costCents, updated_at: now })
      .returning("*");
    if (priced)
      await openHeldRevision(
        trx,
        { ...priced, nte_cents: priced.nte_cents!, quoted_cost_cents: match.costCents },
        { now, base },
      );
    return Boolean(priced);
  });
}
