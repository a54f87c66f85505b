// Sandbox scenarios: which contractor operation a test order's simulated contractor calls at a step; the rest is
// the live code's (docs/decisions.md#the-sandbox-modules).
import type { OrderRow } from "../../db/tables/dispatch.js";
import { DomainError } from "../errors.js";
import type { Answering } from "../dispatch/offers/answer.js";
import { answerPriceRevision } from "../dispatch/revisions/answer.js";
import { requestPriceRevision } from "../dispatch/revisions/request.js";
import { recordEvent } from "../dispatch/orders/record-event.js";
import { touchOrder } from "../dispatch/orders/touch.js";
import { declineOpenOffer, holderOf, reportAsHolder, simulatedContractor } from "./contractor.js";
import { rescheduleAsHolder, setOffLate } from "./holder-moves.js";

/** What a scenario's step did: moved the order, or left it to the happy path's move. */
type Outcome = "moved" | "happy";

/** "moved" when the contractor's operation ran (`ran` resolved true), else the happy path's move. */
const movedIf = async (ran: Promise<boolean>): Promise<Outcome> => ((await ran) ? "moved" : "happy");

const countOf = async (deps: Answering, table: string, where: Record<string, string>) =>
  Number((await deps.db(table).where(where).count<{ n: string }[]>({ n: "*" }))[0].n);

/** 409 for a step that waits on the clock (an offer the contractor lets expire): the walker tries again later. */
const waiting = (row: OrderRow) =>
  new DomainError(
    "conflict",
    "invalid_transition",
    `Order ${row.id} waits for its offer's deadline (sandbox_scenario offer_expires): advance the sandbox clock.`,
  );

/** The first offer of the order is declined or left to expire; later offers take the happy path. */
async function answerFirstOffer(deps: Answering, row: OrderRow, base: string): Promise<Outcome> {
  if ((await countOf(deps, "order_offers", { order_id: row.id })) > 1) return "happy";
  if (row.sandbox_scenario === "offer_expires") throw waiting(row);
  return movedIf(declineOpenOffer(deps, row, base));
}

/** The first contractor to hold the job gives it back; the next one takes the happy path. */
async function giveBackOnce(deps: Answering, row: OrderRow, base: string): Promise<Outcome> {
  if ((await countOf(deps, "order_offers", { order_id: row.id, status: "accepted" })) > 1) return "happy";
  const report = {
    status: "unable_to_attend" as const,
    reason: "vehicle_breakdown" as const,
    note: "Sandbox: the simulated contractor cannot attend.",
  };
  return movedIf(reportAsHolder(deps, row, report, base));
}

/** On site: request a revision over the quoted cost and NTE; at the next step answer it as the scenario says. */
async function reviseOnSite(deps: Answering, row: OrderRow, base: string): Promise<Outcome> {
  const asked = await deps
    .db("order_price_revisions")
    .where({ order_id: row.id, requested_by: "contractor" })
    .orderBy("id", "desc")
    .first();
  const holder = await holderOf(deps, row.id);
  if (!holder) return "happy";
  if (!asked) {
    const amount_cents = Math.max(row.quoted_cost_cents ?? 0, row.nte_cents ?? 0) + 5_000;
    const input = { amount_cents, reason: "Sandbox: the job needs a part nobody quoted." };
    await requestPriceRevision(deps.db, simulatedContractor(holder), { id: row.id, input, base }).finally(
      deps.eventsWritten,
    );
    // the walker's mark of the order's last move: the customer has a whole step to answer before the sandbox does
    await touchOrder(deps.db, row.id);
    return "moved";
  }
  if (asked.status !== "pending") return "happy";
  const answer = row.sandbox_scenario === "price_revision_approved" ? "approved" : "declined";
  const tenant = { account: row.account, environment: row.environment };
  await answerPriceRevision(deps.db, tenant, { id: row.id, revisionId: asked.id, answer, base }).finally(
    deps.eventsWritten,
  );
  return "moved";
}

/** The first holder gives the job back; once it is waiting again (re-offered), the provider's operator cancels it. */
async function providerCancels(deps: Answering, row: OrderRow, base: string): Promise<Outcome> {
  if (row.status === "dispatched") return giveBackOnce(deps, row, base);
  if ((await countOf(deps, "order_offers", { order_id: row.id, status: "accepted" })) === 0) return "happy";
  const input = {
    status: "cancelled" as const,
    note: "Sandbox: the provider cancels the job its contractor gave back.",
  };
  await recordEvent(deps.db, deps, { id: row.id, input, base }).finally(deps.eventsWritten);
  return "moved";
}

/** The scenario's move at this step, or "happy" for the happy path's. */
export async function scenarioStep(deps: Answering, row: OrderRow, base: string): Promise<Outcome> {
  const scenario = row.sandbox_scenario ?? "happy_path";
  if (row.status === "pending_dispatch" && (scenario === "decline_then_reassign" || scenario === "offer_expires"))
    return answerFirstOffer(deps, row, base);
  if (row.status === "dispatched" && scenario === "unable_to_attend") return giveBackOnce(deps, row, base);
  if (row.status === "on_site" && (scenario === "price_revision_approved" || scenario === "price_revision_declined"))
    return reviseOnSite(deps, row, base);
  // every contractor offered the order declines it: the live re-offer moves on until nobody is left
  if (row.status === "pending_dispatch" && scenario === "no_contractor_then_escalate")
    return movedIf(declineOpenOffer(deps, row, base));
  if ((row.status === "dispatched" || row.status === "pending_dispatch") && scenario === "cancelled_by_provider")
    return providerCancels(deps, row, base);
  return holderMove(deps, row, base);
}

/** The holder's own moves once dispatched: a reschedule (once), or setting off late. */
async function holderMove(deps: Answering, row: OrderRow, base: string): Promise<Outcome> {
  if (row.status !== "dispatched") return "happy";
  if (row.sandbox_scenario === "contractor_reschedules") return movedIf(rescheduleAsHolder(deps, row, base));
  if (row.sandbox_scenario === "late_arrival") return movedIf(setOffLate(deps, row, base));
  return "happy";
}

/** The final cost the holder reports: an approved revision's amount (the order's NTE now), else the quoted cost. */
export async function finalCostOf(deps: Answering, row: OrderRow): Promise<number> {
  const approved = await deps
    .db("order_price_revisions")
    .where({ order_id: row.id, requested_by: "contractor", status: "approved" })
    .orderBy("id", "desc")
    .first();
  return approved?.amount_cents ?? row.quoted_cost_cents ?? 0;
}
