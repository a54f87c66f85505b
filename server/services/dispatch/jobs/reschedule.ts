// rescheduleJob: the contractor holding a job moves it to another arrival window it works. The rule is the
// customer's reschedule (orders/reschedule.ts: the window on the job's grid, bookable within the urgency, the
// contractor's seats, the ETA re-estimated, order.rescheduled then order.eta_updated, the `reschedule` audit
// record), so the two can never disagree on a window; only the mover differs: the job must be the caller's (its
// accepted offer, the order still naming it: jobs/held.ts's "holds", checked under the order's row lock before any
// 409, so another contractor's job is 404 and never tells its status), the event and audit record say
// `rescheduled_by: contractor`, and the answer is the job as the contractor sees it.
import type { ContractorCaller } from "../../access/principal.js";
import type { ContractorService } from "../contractors.js";
import type { Db } from "../../../db/knex.js";
import { moveWindow, type RescheduleInput } from "../orders/reschedule.js";
import { heldOffer, jobNotFound } from "./held.js";
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
    },
    request,
  );
}
