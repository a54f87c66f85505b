// The one builder of contractor_events rows, from the offer row and the job as the assignment left it, or from a
// change's order events for the contractor offered or holding it; nothing else of the order is read into a row.
import type { Knex } from "knex";
import type { OrderOfferRow } from "../../../db/tables/dispatch.js";
import type { ContractorEventExtras, ContractorEventType } from "../../../db/tables/contractor-events.js";
import type { EventWrite } from "../../events/event-row.js";
import type { Schemas } from "../../../types/contract.js";
import { jobColumns, offerView, type JobRow } from "./offer-view.js";

type Offer = Pick<
  OrderOfferRow,
  | "id"
  | "order_id"
  | "contractor_id"
  | "account"
  | "environment"
  | "created_at"
  | "deadline_at"
  | "quoted_cost_cents"
  | "nte_cents"
  | "arrival_window_start"
  | "arrival_window_end"
>;
type Withdrawal = Schemas["ContractorOfferWithdrawal"];
/** What happened to an offer: opened, or closed unanswered and why. */
export type OfferChange = "offered" | Withdrawal;

/** The columns a row is inserted with (the order writer's CTE inserts exactly these). */
export const contractorEventColumns = [
  "contractor_id",
  "environment",
  "account",
  "order_id",
  "offer_id",
  "type",
  "at",
  "data",
] as const;

function rowOf(offer: Omit<Offer, "created_at" | "deadline_at">, type: ContractorEventType, at: Date, data: object) {
  const { contractor_id, environment, account, order_id } = offer;
  return { contractor_id, environment, account, order_id, offer_id: offer.id, type, at, data };
}

/** offer.created of a new offer of `job` (the order as its assignment leaves it), with `data` as an object. */
export function offerCreatedRow(offer: Offer, job: JobRow) {
  const shown = offerView(
    { ...offer, status: "offered", responded_at: null, decline_reason: null, note: null },
    job,
    false,
  );
  const data: ContractorEventExtras = { job: shown.job, respond_by: shown.respond_by };
  return rowOf(offer, "offer.created", new Date(offer.created_at), data);
}

const encoded = <Row extends { data: object }>(row: Row) => ({ ...row, data: JSON.stringify(row.data) });

/** The event of one step of an offer's life (opened, or closed without the contractor's answer), in its transaction. */
export async function recordOfferEvent(trx: Knex.Transaction, offer: Offer, change: OfferChange, at: Date) {
  const job = await trx("orders").where({ id: offer.order_id }).first<JobRow | undefined>(jobColumns);
  if (!job) return;
  if (change === "offered") {
    await trx("contractor_events").insert(encoded(offerCreatedRow(offer, job)));
    return;
  }
  const data: ContractorEventExtras = { reason: change };
  await trx("contractor_events").insert(encoded(rowOf(offer, "offer.withdrawn", at, data)));
}

interface Fact {
  type: ContractorEventType;
  data: ContractorEventExtras;
}

/** The contractor's events among one change's order events: what someone else did to its job (a move by its holder,
 * or by dispatch offering it to this contractor in its new window, is the contractor's own news already; a re-plan's
 * move of a job it holds is not). */
function jobFactsOf(events: EventWrite[]): Fact[] {
  const reoffered = events.some((e) => e.type === "order.assigned");
  const byContractor = events.some(
    (e) =>
      e.type === "order.rescheduled" &&
      (e.data?.rescheduled_by === "contractor" || (e.data?.rescheduled_by === "dispatch" && reoffered)),
  );
  const facts: Fact[] = [];
  for (const { type, data } of events) {
    if (type === "order.cancelled") facts.push({ type: "job.cancelled", data: {} });
    if (type === "order.rescheduled" && data?.arrival_window && !byContractor) {
      const { arrival_window, previous_arrival_window } = data;
      facts.push({
        type: "job.rescheduled",
        data: { arrival_window, ...(previous_arrival_window ? { previous_arrival_window } : {}) },
      });
    }
    if (type === "order.eta_updated" && data?.eta && data.eta.source !== "contractor" && !byContractor)
      facts.push({ type: "job.eta_updated", data: { eta: data.eta } });
    if (type === "order.price_revision_resolved" && data?.price_revision?.requested_by === "contractor")
      facts.push({ type: "job.price_revision_resolved", data: { price_revision: data.price_revision } });
  }
  return facts;
}

/** The contractor events of one change's order events, for the contractor whose offer is open or accepted. */
export async function recordJobEvents(
  trx: Knex.Transaction,
  order: { id: string; contractor_id: string | null },
  events: EventWrite[],
  at: Date,
): Promise<void> {
  const facts = jobFactsOf(events);
  if (!facts.length || !order.contractor_id) return;
  const offer = await trx("order_offers")
    .where({ order_id: order.id, contractor_id: order.contractor_id })
    .whereIn("status", ["offered", "accepted"])
    .orderBy("created_at", "desc")
    .first();
  if (!offer) return;
  await trx("contractor_events").insert(facts.map((fact) => encoded(rowOf(offer, fact.type, at, fact.data))));
}
