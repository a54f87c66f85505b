// The contractor's jobs: the ones it holds, listed, reported on (report.ts), their windows listed (windows.ts) and
// moved (reschedule.ts). Contractor keys only, scoped to its environment, on the order's clock (shared/test-clock.ts).
import type { OrderOfferRow } from "../../../db/tables/dispatch.js";
import type { ContractorCaller } from "../../access/principal.js";
import { baseUrlOf } from "../../shared/base-url.js";
import { newestFirst, pageOf } from "../../shared/keyset.js";
import type { ResponseBody, ValidQuery } from "../../../types/contract.js";
import type { Answering } from "../orders/reoffer.js";
import { reportJobStatus, type JobReport } from "./report.js";
import { rescheduleJob } from "./reschedule.js";
import { listJobWindows } from "./windows.js";
import type { RescheduleInput } from "../orders/reschedule.js";
import { stillHeld } from "../orders/held-job.js";
import { jobViews } from "./view.js";
import { onOrderClock } from "../../shared/test-clock.js";

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

export function createJobService(deps: Answering) {
  const baseOf = (origin: string) => baseUrlOf(deps.config.publicBaseUrl, origin);
  return {
    list: (caller: ContractorCaller, filter: JobListFilter) => listJobs(deps, caller, filter),
    report: (caller: ContractorCaller, id: string, report: JobReport, origin: string) =>
      onOrderClock(deps.db, { id, environment: caller.environment }, () =>
        reportJobStatus(deps, caller, { id, report, base: baseOf(origin) }),
      ),
    windows: (caller: ContractorCaller, id: string) =>
      onOrderClock(deps.db, { id, environment: caller.environment }, () => listJobWindows(deps, caller, id)),
    reschedule: (caller: ContractorCaller, id: string, input: RescheduleInput, origin: string) =>
      onOrderClock(deps.db, { id, environment: caller.environment }, () =>
        rescheduleJob(deps, caller, { id, input, base: baseOf(origin) }).finally(deps.eventsWritten),
      ),
  };
}

export type JobService = ReturnType<typeof createJobService>;
