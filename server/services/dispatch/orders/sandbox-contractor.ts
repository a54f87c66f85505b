// The simulated contractor of a test order: the sandbox plays the contractor side through the contractor's own
// operations, so a test key sees what live does (the same events, audit records and NTE rule). Holding an open
// offer it answers it with acceptOffer; holding the job it reports en_route (with its ETA), on_site and completed
// with updateJobStatus, as a ContractorCaller of that contractor in the test environment. Nothing here writes a
// status: each move is the operation a real contractor's key would call, with its row locks and 409s.
//
// Why a caller synthesised here rather than a stored contractor key: the simulated contractor is the pool's own
// contractor (the one the dispatcher offered the job to), and a key is a secret an integrator holds; the operations
// take the caller only for its contractor and environment, which the offer names. Its `id` is `sandbox`, so the
// audit records say the sandbox answered. An order an operator moved by hand (its job held by no accepted offer)
// has no contractor in the protocol to play: the sandbox walks it as that operator's stand-in, as it always did.
import type { ContractorCaller } from "../../access/principal.js";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { now as nowMs } from "../../shared/clock.js";
import { acceptOffer, declineOffer, type Answering } from "../offers/answer.js";
import { stillHeld } from "../jobs/held.js";
import { reportJobStatus, type JobReport } from "../jobs/report.js";

/** The sandbox acting as one contractor of the pool, in the test environment. */
export const simulatedContractor = (contractorId: string): ContractorCaller => ({
  kind: "contractor",
  id: "sandbox",
  contractorId,
  environment: "test",
  scopes: ["contractor:offers", "contractor:jobs"],
});

/** The open offer of a waiting order, if any. */
export const openOfferOf = (deps: Answering, orderId: string) =>
  deps.db("order_offers").where({ order_id: orderId, status: "offered" }).first();

/** The contractor holding the job, by the one rule of every contractor operation (jobs/held.ts: its accepted
 * offer is the order's newest and the order still names it), if any. */
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

/** The next field report of the job's holder: en_route with an ETA its response minutes from now, on_site,
 * completed at the quoted cost. */
export function nextReport(row: OrderRow): JobReport | null {
  if (row.status === "dispatched") {
    const minutes = row.estimated_response_minutes ?? 30;
    const estimated_arrival_at = new Date(nowMs() + minutes * 60_000).toISOString();
    return { status: "en_route", estimated_arrival_at, note: `Sandbox: en route, ETA ${minutes} minutes.` };
  }
  if (row.status === "en_route") return { status: "on_site", note: "Sandbox: on site." };
  if (row.status === "on_site")
    return {
      status: "completed",
      final_cost_cents: row.quoted_cost_cents ?? 0,
      note: "Sandbox: completed at the quoted cost.",
    };
  return null;
}

/** The holder reports `report` on its job; false when no contractor holds it. */
export async function reportAsHolder(deps: Answering, row: OrderRow, report: JobReport, base: string) {
  const holder = await holderOf(deps, row.id);
  if (!holder) return false;
  await reportJobStatus(deps, simulatedContractor(holder), { id: row.id, report, base });
  return true;
}
