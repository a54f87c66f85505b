// The sandbox walker's mark of an order's last move when the move wrote nothing of the order itself (a price
// revision asked): the next step waits a whole step from it.
import type { Db } from "../../../db/knex.js";
import { nowDate } from "../../shared/clock.js";

export async function touchOrder(db: Db, id: string): Promise<void> {
  await db("orders").where({ id }).update({ updated_at: nowDate() });
}
