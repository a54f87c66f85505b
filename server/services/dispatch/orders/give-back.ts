// A contractor giving back a job it accepted (jobs/report.ts), before on site: the order returns to pending_dispatch
// with its event and audit record, keeping contractor and seats until the re-offer (reoffer.ts); its revision goes.
import type { Knex } from "knex";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { DomainError } from "../../errors.js";
import { nowDate } from "../../shared/clock.js";
import { moveStatus } from "./move-status.js";
import { givableStatuses, mayGiveBack } from "./state.js";
import { withdrawPendingRevision } from "./revision-records.js";

/** `note`: why, as the status event and its audit record keep it. */
export async function giveBackJob(trx: Knex.Transaction, row: OrderRow, note: string, base: string): Promise<void> {
  if (!mayGiveBack(row.status))
    throw new DomainError(
      "conflict",
      "invalid_transition",
      `Order ${row.id} is ${row.status}; a contractor gives a job back only before it is on site (${givableStatuses.join(" or ")}).`,
    );
  const now = nowDate();
  const record = { note, human_override: false, final_cost_cents: null };
  const given = await moveStatus(trx, row, { kind: "give_back", to: "pending_dispatch", record, now, base });
  if (row.contractor_id)
    await withdrawPendingRevision(trx, given, { contractorLeft: row.contractor_id }, { now, base });
}
