// updateJobStatus: the job's holder reports from the field through applyEvent (source `contractor`), audited as
// `job_status`; unable_to_attend gives the job back (orders/give-back.ts) and re-offers it (docs/decisions.md).
import type { Knex } from "knex";
import type { OrderOfferRow, OrderRow } from "../../../db/tables/dispatch.js";
import { nowDate } from "../../shared/clock.js";
import { appendAudit } from "../../audit/entries.js";
import type { ContractorCaller } from "../../access/principal.js";
import type { RequestBody } from "../../../types/contract.js";
import { applyEvent } from "../orders/apply-event.js";
import { giveBackJob } from "../orders/give-back.js";
import { reOffer } from "../orders/reoffer.js";
import type { OrderEventInput } from "../orders/transition.js";
import type { Answering } from "../orders/reoffer.js";
import { jobNotFound, lockJob } from "../orders/held-job.js";
import { assertJobStep } from "./steps.js";
import { jobViews, type JobView } from "./view.js";

export type JobReport = RequestBody<"updateJobStatus">;

/** The job's order under its row lock and the caller's accepted offer of it; 404 unless the caller holds it. */
async function lockHeld(trx: Knex.Transaction, caller: ContractorCaller, id: string) {
  const job = await lockJob(trx, caller, id);
  if (!job?.offer) throw jobNotFound(id);
  return { row: job.row, offer: job.offer };
}

async function auditReport(trx: Knex.Transaction, offer: OrderOfferRow, report: JobReport, from: string) {
  await appendAudit(trx, {
    type: "job_status",
    tenant: { account: offer.account, environment: offer.environment },
    subject: offer.order_id,
    content: { offer_id: offer.id, contractor_id: offer.contractor_id, from, ...report },
  });
}

type GivingBack = Extract<JobReport, { status: "unable_to_attend" }>;

const giveBackNote = (report: GivingBack) =>
  `Contractor unable to attend (${report.reason})${report.note ? `: ${report.note}` : "."}`;

/** A lifecycle step's input: the report as an event (each status with its field), the ETA the contractor's own. */
const eventOf = (report: Exclude<JobReport, GivingBack>): OrderEventInput => ({
  status: report.status,
  ...(report.note === undefined ? {} : { note: report.note }),
  ...(report.status === "completed" ? { final_cost_cents: report.final_cost_cents } : {}),
  ...(report.status === "en_route"
    ? { estimated_arrival_at: report.estimated_arrival_at, eta_source: "contractor" as const }
    : {}),
});

/** The arrival a report of on_site from dispatched implies: en_route now, expected now. */
const arrivedEnRoute = (now: Date): OrderEventInput => ({
  status: "en_route",
  note: "Arrived without reporting en_route: on site at once.",
  estimated_arrival_at: now.toISOString(),
  eta_source: "contractor",
});

/** Applies a lifecycle report, through en_route first when it reports on_site from dispatched. */
async function applyReport(trx: Knex.Transaction, row: OrderRow, report: Exclude<JobReport, GivingBack>, base: string) {
  if (report.status === "on_site" && row.status === "dispatched")
    await applyEvent(trx, row.id, arrivedEnRoute(nowDate()), null, base);
  await applyEvent(trx, row.id, eventOf(report), null, base);
}

/** updateJobStatus: 404 for a job the caller does not hold, 409 invalid_transition / over_nte, 422 shape. */
export async function reportJobStatus(
  deps: Answering,
  caller: ContractorCaller,
  request: { id: string; report: JobReport; base: string },
): Promise<JobView> {
  const { id, report, base } = request;
  const giving = report.status === "unable_to_attend";
  const offer = await deps.db
    .transaction(async (trx) => {
      const held = await lockHeld(trx, caller, id);
      assertJobStep(held.row, report.status);
      if (report.status === "unable_to_attend") await giveBackJob(trx, held.row, giveBackNote(report), base);
      else await applyReport(trx, held.row, report, base);
      await auditReport(trx, held.offer, report, held.row.status);
      return held.offer;
    })
    .finally(deps.eventsWritten);
  if (giving) await reOffer(deps, id, base).finally(deps.eventsWritten);
  const [view] = await jobViews(deps.db, [offer]);
  return view;
}
