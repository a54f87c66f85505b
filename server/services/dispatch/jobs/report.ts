// updateJobStatus: the contractor holding a job reports it from the field. en_route, on_site and completed are
// lifecycle steps through applyEvent (the one transition path: the transition table, the NTE rule, the catalogue's
// events and webhooks), with the contractor's ETA as source `contractor` and never a human override; the report
// itself is a `job_status` audit record under the order's tenant. unable_to_attend gives the job back: under the
// same row lock the order returns to pending_dispatch (orders/give-back.ts), then it is re-offered
// (orders/reoffer.ts: the contractor already had an offer of it, so it is excluded like a decliner; nobody left
// sends the order back to the dispatcher). Should the re-offer step fail after the give-back committed, the offers'
// sweep finds the order waiting with an accepted offer and no open one, and re-offers it.
import type { Knex } from "knex";
import type { OrderOfferRow } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import type { ContractorCaller } from "../../access/principal.js";
import type { RequestBody } from "../../../types/contract.js";
import { applyEvent } from "../orders/apply-event.js";
import { invalidField } from "../orders/errors.js";
import { giveBackJob } from "../orders/give-back.js";
import { reOffer } from "../orders/reoffer.js";
import type { OrderEventInput } from "../orders/transition.js";
import type { Answering } from "../offers/answer.js";
import { jobNotFound, lockJob } from "./held.js";
import { jobViews, type JobView } from "./view.js";

export type JobReport = RequestBody<"updateJobStatus">;

/** Each report's one field, required with it and refused with any other (422 naming it). */
const fieldOf = {
  en_route: "estimated_arrival_at",
  on_site: null,
  completed: "final_cost_cents",
  unable_to_attend: "reason",
} as const satisfies Record<JobReport["status"], keyof JobReport | null>;

export function assertReportShape(report: JobReport): void {
  for (const [status, field] of Object.entries(fieldOf)) {
    if (!field) continue;
    const given = report[field] !== undefined;
    if (status === report.status && !given)
      throw invalidField(`/${field}`, `"${field}" is required to report ${status}.`);
    if (status !== report.status && given)
      throw invalidField(`/${field}`, `"${field}" only applies when reporting ${status}.`);
  }
}

/** The job's order under its row lock and the caller's accepted offer of it; 404 unless the caller holds it. */
async function lockHeld(trx: Knex.Transaction, caller: ContractorCaller, id: string) {
  const job = await lockJob(trx, caller, id);
  if (!job?.offer) throw jobNotFound(id);
  return { row: job.row, offer: job.offer };
}

/** The report's audit record, under the order's tenant. */
async function auditReport(trx: Knex.Transaction, offer: OrderOfferRow, report: JobReport, from: string) {
  await appendAudit(trx, {
    type: "job_status",
    tenant: { account: offer.account, environment: offer.environment },
    subject: offer.order_id,
    content: { offer_id: offer.id, contractor_id: offer.contractor_id, from, ...report },
  });
}

/** Why the job is given back, as its status event says. */
const giveBackNote = (report: JobReport) =>
  `Contractor unable to attend (${report.reason!})${report.note ? `: ${report.note}` : "."}`;

/** A lifecycle step's input: the report as an event, the ETA the contractor's own. */
const eventOf = (report: JobReport): OrderEventInput => ({
  status: report.status as OrderEventInput["status"],
  ...(report.note === undefined ? {} : { note: report.note }),
  ...(report.final_cost_cents === undefined ? {} : { final_cost_cents: report.final_cost_cents }),
  ...(report.estimated_arrival_at === undefined
    ? {}
    : { estimated_arrival_at: report.estimated_arrival_at, eta_source: "contractor" as const }),
});

/** updateJobStatus: 404 for a job the caller does not hold, 409 invalid_transition / over_nte, 422 shape. */
export async function reportJobStatus(
  deps: Answering,
  caller: ContractorCaller,
  request: { id: string; report: JobReport; base: string },
): Promise<JobView> {
  const { id, report, base } = request;
  assertReportShape(report);
  const giving = report.status === "unable_to_attend";
  const offer = await deps.db
    .transaction(async (trx) => {
      const held = await lockHeld(trx, caller, id);
      if (giving) await giveBackJob(trx, held.row, giveBackNote(report), base);
      else await applyEvent(trx, id, eventOf(report), null, base);
      await auditReport(trx, held.offer, report, held.row.status);
      return held.offer;
    })
    .finally(deps.eventsWritten);
  if (giving) await reOffer(deps, id, base).finally(deps.eventsWritten);
  const [view] = await jobViews(deps.db, [offer]);
  return view;
}
