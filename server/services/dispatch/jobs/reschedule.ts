// rescheduleJob: the contractor holding a job moves it to another window it works, by the customer's reschedule
// rule (orders/reschedule.ts); only the mover differs.
import type { ContractorCaller } from "../../access/principal.js";
import type { ContractorService } from "../contractors.js";
import type { Db } from "../../../db/knex.js";
import { moveWindow, type RescheduleInput } from "../orders/reschedule.js";
import { heldOffer, jobNotFound } from "../orders/held-job.js";
import { jobViews, type JobView } from "./view.js";

/** rescheduleJob: 404 for a job the caller does not hold, else rescheduleOrder's 409s and 422s; the job's view. */
export function rescheduleJob(
  deps: { db: Db; contractors: ContractorService },
  caller: ContractorCaller,
  request: { id: string; input: RescheduleInput; base: string },
): Promise<JobView> {
  return moveWindow(
    deps,
    {
      by: "contractor",
      scope: { environment: caller.environment },
      notFound: jobNotFound,
      hold: (trx, row) => heldOffer(trx, caller, row.id), // its accepted offer, unchanged by the move
      view: async (trx, _row, offer) => (await jobViews(trx, [offer]))[0],
      openWindows: (orderId) => `list the job's open windows with 'dispatch jobs windows ${orderId}' (listJobWindows)`,
    },
    request,
  );
}
