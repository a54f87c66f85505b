// The simulated contractor of a test order: it answers offers and reports its job through the contractor's own
// operations (acceptOffer, updateJobStatus), so a test key sees what live does; nothing here writes a row itself.
import type { ContractorCaller } from "../access/principal.js";
import type { OrderRow } from "../../db/tables/dispatch.js";
import { now as nowMs } from "../shared/clock.js";
import { acceptOffer, declineOffer, type Answering } from "../dispatch/offers/answer.js";
import { stillHeld } from "../dispatch/orders/held-job.js";
import { isReported, nextStep, type ReportedStatus } from "../dispatch/orders/state.js";
import { reportJobStatus, type JobReport } from "../dispatch/jobs/report.js";
import { driveMinutesOf } from "./walk-due.js";

/** The sandbox acting as one contractor of the pool, in the test environment. */
export const simulatedContractor = (contractorId: string): ContractorCaller => ({
  kind: "contractor",
  id: "sandbox",
  contractorId,
  environment: "test",
  scopes: ["contractor:offers", "contractor:jobs"],
});

export const openOfferOf = (deps: Answering, orderId: string) =>
  deps.db("order_offers").where({ order_id: orderId, status: "offered" }).first();

/** The contractor holding the job, by the one rule of every contractor operation (orders/held-job.ts). */
export async function holderOf(deps: Answering, orderId: string): Promise<string | null> {
  const offer = await deps
    .db("order_offers as o")
    .where({ "o.order_id": orderId, "o.status": "accepted" })
    .modify(stillHeld)
    .first<{ contractor_id: string } | undefined>("o.contractor_id");
  return offer?.contractor_id ?? null;
}

/** The offered contractor accepts; false when nobody holds an open offer (the sweep re-offers it). */
export async function acceptOpenOffer(deps: Answering, row: OrderRow, base: string): Promise<boolean> {
  const offer = await openOfferOf(deps, row.id);
  if (!offer) return false;
  await acceptOffer(deps, simulatedContractor(offer.contractor_id), offer.id, base);
  return true;
}

/** The offered contractor declines (with a reason, as live); false when there is no open offer. */
export async function declineOpenOffer(deps: Answering, row: OrderRow, base: string): Promise<boolean> {
  const offer = await openOfferOf(deps, row.id);
  if (!offer) return false;
  const input = { reason: "no_capacity" as const, note: "Sandbox: the simulated contractor declines." };
  await declineOffer(deps, simulatedContractor(offer.contractor_id), { id: offer.id, input, base });
  return true;
}

/** How close to the window's end the simulated holder arrives at the latest. */
const marginMs = 5 * 60_000;

/** When the holder setting off now arrives: its drive from now, inside the booked window: not before its start (it
 * waits there, as a technician early for its window does), and a drive the window cannot hold shortened to reach it
 * (only `late_arrival` is late: holder-moves.ts). */
function arrivalOf(row: OrderRow, now: number): number {
  const driven = now + driveMinutesOf(row) * 60_000;
  if (!row.arrival_window_start || !row.arrival_window_end) return driven;
  const start = new Date(row.arrival_window_start).getTime();
  const latest = new Date(row.arrival_window_end).getTime() - marginMs;
  return Math.max(start, now, Math.min(driven, latest));
}

/** The holder's report of reaching each status it reports (orders/state.ts): en_route with an ETA, on_site,
 * completed at the quoted cost. A status the machine lets contractors report fails here until it has one. */
const reports: { [S in ReportedStatus]: (row: OrderRow) => Extract<JobReport, { status: S }> } = {
  en_route: (row) => {
    const now = nowMs();
    const arrival = arrivalOf(row, now);
    const minutes = Math.round((arrival - now) / 60_000);
    const estimated_arrival_at = new Date(arrival).toISOString();
    return { status: "en_route", estimated_arrival_at, note: `Sandbox: en route, ETA ${minutes} minutes.` };
  },
  on_site: () => ({ status: "on_site", note: "Sandbox: on site." }),
  completed: (row) => ({
    status: "completed",
    final_cost_cents: row.quoted_cost_cents ?? 0,
    note: "Sandbox: completed at the quoted cost.",
  }),
};

/** The holder's next field report: its report of the next step, when a contractor reports that step. */
export function nextReport(row: OrderRow): JobReport | null {
  const step = nextStep(row.status);
  return step && isReported(step) ? reports[step](row) : null;
}

/** The holder reports `report` on its job; false when no contractor holds it. */
export async function reportAsHolder(deps: Answering, row: OrderRow, report: JobReport, base: string) {
  const holder = await holderOf(deps, row.id);
  if (!holder) return false;
  await reportJobStatus(deps, simulatedContractor(holder), { id: row.id, report, base });
  return true;
}
