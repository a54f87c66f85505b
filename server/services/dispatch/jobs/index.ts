// The contractor's jobs: the ones it holds (an accepted offer, the order still its own), listed, reported on from
// the field (report.ts) and moved to another of its arrival windows (reschedule.ts). Contractor keys only; every
// read is scoped to the caller's contractor and environment. A report or move of a test order runs on that order's
// account's clock (orders/test-clock.ts), as its offers' answers do.
import type { OrderOfferRow } from "../../../db/tables/dispatch.js";
import type { ContractorCaller } from "../../access/principal.js";
import { baseUrlOf } from "../../shared/base-url.js";
import { newestFirst, pageOf } from "../../shared/keyset.js";
import type { ResponseBody, ValidQuery } from "../../../types/contract.js";
import type { Answering } from "../offers/answer.js";
import { reportJobStatus, type JobReport } from "./report.js";
import { rescheduleJob } from "./reschedule.js";
import type { RescheduleInput } from "../orders/reschedule.js";
import { stillHeld } from "./held.js";
import { jobViews } from "./view.js";
import { onTenantClock } from "../orders/test-clock.js";

export type JobListFilter = ValidQuery<"listContractorJobs">;

/** listContractorJobs: the jobs the caller holds in its environment, newest offer first. */
async function listJobs(
  deps: Answering,
  caller: ContractorCaller,
  filter: JobListFilter,
): Promise<ResponseBody<"listContractorJobs", 200>> {
  const own = deps
    .db("order_offers as o")
    .where({ "o.contractor_id": caller.contractorId, "o.environment": caller.environment, "o.status": "accepted" })
    .select<OrderOfferRow[]>("o.*");
  stillHeld(own);
  const { page, next_cursor } = pageOf<OrderOfferRow>(await newestFirst(own, filter, /^ofr_/), filter.limit);
  return { items: await jobViews(deps.db, page), next_cursor };
}

/** Runs a report on the clock of the order's tenant (an order of the caller's environment; any other is the
 * report's 404). */
async function onJobClock<T>(deps: Answering, caller: ContractorCaller, id: string, work: () => Promise<T>) {
  const order = await deps.db("orders").where({ id, environment: caller.environment }).first("account", "environment");
  return onTenantClock(deps.db, order, work);
}

/** `origin`: the request's own origin, the base of status URLs in events when PUBLIC_BASE_URL is unset. */
export function createJobService(deps: Answering) {
  const baseOf = (origin: string) => baseUrlOf(deps.config.publicBaseUrl, origin);
  return {
    list: (caller: ContractorCaller, filter: JobListFilter) => listJobs(deps, caller, filter),
    report: (caller: ContractorCaller, id: string, report: JobReport, origin: string) =>
      onJobClock(deps, caller, id, () => reportJobStatus(deps, caller, { id, report, base: baseOf(origin) })),
    reschedule: (caller: ContractorCaller, id: string, input: RescheduleInput, origin: string) =>
      onJobClock(deps, caller, id, () =>
        rescheduleJob(deps, caller, { id, input, base: baseOf(origin) }).finally(deps.eventsWritten),
      ),
  };
}

export type JobService = ReturnType<typeof createJobService>;
