// The evals document: metrics computed from the live order records of a rolling window, each with provenance,
// computed at most once per period per `cacheSeconds` and shared by concurrent callers (evals are public).
import { LRUCache } from "lru-cache";
import type { Db } from "../../../db/knex.js";
import { statusEventTypes } from "../../events/catalogue.js";
import { offerFacts, type OfferFacts } from "./offer-facts.js";
import { ofWindowOrders } from "./window-rows.js";
import { planFacts, type PlanFacts } from "./plan-facts.js";
import { isFinal } from "../orders/state.js";
import { fulfilmentDeadline } from "../fulfilment-deadline.js";
import { nowDate } from "../../shared/clock.js";

export const evalPeriods = { rolling_7d: 7, rolling_30d: 30, rolling_90d: 90 } as const;
export type EvalPeriod = keyof typeof evalPeriods;

type Provenance = "measurement" | "self_reported_estimate" | "unavailable";
interface Metric {
  value: number | null;
  unit: string;
  provenance: Provenance;
  sample_size: number;
  note?: string;
}

const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

function ratio(numerator: number, denominator: number): Metric {
  return denominator === 0
    ? { value: null, unit: "ratio", provenance: "unavailable", sample_size: 0, note: "No records in the window." }
    : { value: round(numerator / denominator), unit: "ratio", provenance: "measurement", sample_size: denominator };
}

const shareTrue = (judged: boolean[]) => ratio(judged.filter(Boolean).length, judged.length);

/** A measured value over `sample` records, or unavailable (`none` says why) when there are none. */
const measured = (value: number, unit: string, sample: number, none: string): Metric =>
  sample
    ? { value, unit, provenance: "measurement", sample_size: sample }
    : { value: null, unit, provenance: "unavailable", sample_size: 0, note: none };

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], percent: number, none = "No dispatched orders in the window."): Metric {
  if (!sorted.length) return { value: null, unit: "ms", provenance: "unavailable", sample_size: 0, note: none };
  const rank = Math.max(1, Math.ceil((percent / 100) * sorted.length));
  return { value: sorted[rank - 1], unit: "ms", provenance: "measurement", sample_size: sorted.length };
}

/** Each order's arrival: the first step to on_site (an order's status events; facts carry no status change). */
const firstArrivals = (db: Db, since: Date) =>
  ofWindowOrders(db, "order_events", since)
    .whereIn("order_events.type", statusEventTypes)
    .where("order_events.status", "on_site")
    .groupBy("order_events.order_id")
    .select({ order_id: "order_events.order_id" })
    .min({ arrived_at: "order_events.at" });

async function windowFacts(db: Db, since: Date) {
  const orders = await db("orders")
    .where("environment", "live")
    .where("created_at", ">=", since)
    .select(
      "id",
      "status",
      "contractor_id",
      "nte_cents",
      "final_cost_cents",
      "dispatch_latency_ms",
      "escalated_at",
      "urgency",
      "created_at",
      "arrival_window_start",
      "arrival_window_end",
    );
  const overridden = await ofWindowOrders(db, "order_events", since)
    .where("order_events.human_override", true)
    .countDistinct({ count: "order_events.order_id" });
  const arrivals = await firstArrivals(db, since);
  const arrivedAt = new Map(arrivals.map((row) => [String(row.order_id), new Date(row.arrived_at as Date | string)]));
  const revised = await ofWindowOrders(db, "order_price_revisions", since).countDistinct({
    count: "order_price_revisions.order_id",
  });
  const revisedOrders = Number(revised[0]?.count ?? 0);
  return { orders, overriddenOrders: Number(overridden[0]?.count ?? 0), arrivedAt, revisedOrders };
}

type WindowOrders = Awaited<ReturnType<typeof windowFacts>>["orders"];
type WindowOrder = WindowOrders[number];

const methodology =
  "Computed from this service's live order, order-event and booking records of orders created in the window (sandbox orders, made with dispatch_test_ keys, are never counted), at most once per period per cache interval (30 s by default): generated_at says when. goal_fulfillment_rate: orders with an assigned contractor / orders. completion_rate: completed / (completed + cancelled). nte_accuracy_rate: completed orders with an NTE whose final cost is at or under it / such orders. dispatch latency: order receipt to contractor assignment, nearest-rank percentiles. human_override_rate: orders with an event marked human_override (every operator event through recordOrderEvent, which contractors' own reports replace as the normal path) / orders. cancellation_rate: cancelled orders (by customer or operator) / orders. escalation_rate: orders escalated for passing their fulfilment deadline unassigned (order.escalated) / orders. window_adherence_rate: orders with a booked arrival window whose contractor arrived (the first step to on_site) inside it, start included and end not / such orders that arrived (early counts as outside). on_site_within_deadline_rate: orders whose contractor was on site (the first step to on_site) by the order's fulfilment deadline (created_at + 30 min / 2 h / 24 h / 72 h by urgency) / orders on site or past that deadline (cancelled ones that never arrived are not counted). Offers (the live offers of the window's orders): offer_acceptance_rate: offers accepted / offers accepted, declined or expired (open and withdrawn offers are not counted). time to accept: an offer's offered_at to its responded_at, over accepted offers, nearest-rank percentiles. reoffers_per_order: offers beyond the first / orders that had an offer. price_revision_rate: orders with a price revision (asked by the contractor, or opened for an order held over its NTE at creation) / orders. eta_in_window_at_booking_rate: orders whose first order.assigned event carried an ETA and a booked window with the ETA inside it, start and end included / orders whose first order.assigned carried both. unassigned_rate: orders past their fulfilment deadline with no contractor now (waiting, held over their NTE or escalated) / orders past that deadline; cancelled orders are counted in neither. Drive minutes (the bookings the window's orders hold that kept their planned drive; a cancelled order holds none): drive_minutes_total: the drives planned, summed; drive_minutes_mean: per booking. replans_per_order: (order.assigned events marked reassigned + order.rescheduled events with rescheduled_by dispatch) / orders with an order.assigned event; a re-assignment that also moved the window counts twice, moves by the customer or the contractor not at all. Metrics without records are null and marked unavailable.";

/** Published targets and audit facts: constant, stated beside the measured metrics. */
const trustSignals = {
  audit_trail: "RFC 9162 Merkle log with signed checkpoints; seals verifiable at /api/attest/verify/{seal}",
  audit_retention_years: 7,
  independent_audit: false,
  published_targets: {
    quote_turnaround: "under 2 hours",
    completion_rate: "90%",
    dispatch_latency_p50: "340 ms",
    human_override_rate: "3%",
  },
};

/** The offers' metrics: acceptance, time to accept, re-offers (each with its own sample). */
function offerMetrics(facts: OfferFacts) {
  const { reoffers, offeredOrders } = facts;
  const perOrder = measured(round(reoffers / offeredOrders), "offers", offeredOrders, "No offers in the window.");
  return {
    offer_acceptance_rate: ratio(facts.accepted, facts.concluded),
    time_to_accept_p50_ms: percentile(facts.acceptMs, 50, "No accepted offers in the window."),
    time_to_accept_p95_ms: percentile(facts.acceptMs, 95, "No accepted offers in the window."),
    reoffers_per_order: perOrder,
  };
}

/** The plan's metrics: the promise at booking, the drives planned, the re-plans (each with its own sample). */
function planMetrics(facts: PlanFacts) {
  const { drives, driveMinutes, assignedOrders } = facts;
  const noDrives = "No bookings with a planned drive in the window.";
  return {
    eta_in_window_at_booking_rate: shareTrue(facts.etaInWindow),
    drive_minutes_total: measured(driveMinutes, "minutes", drives, noDrives),
    drive_minutes_mean: measured(round(driveMinutes / drives, 1), "minutes", drives, noDrives),
    replans_per_order: measured(
      round(facts.replans / assignedOrders),
      "replans",
      assignedOrders,
      "No assigned orders in the window.",
    ),
  };
}

/** Per order with a booked window whose contractor arrived: whether it arrived inside the window. */
function arrivalsInWindow(orders: WindowOrders, arrivedAt: Map<string, Date>): boolean[] {
  return orders.flatMap((order) => {
    const at = arrivedAt.get(order.id)?.getTime();
    const [start, end] = [order.arrival_window_start, order.arrival_window_end].map((t) =>
      t ? new Date(t).getTime() : NaN,
    );
    return at === undefined || Number.isNaN(start) ? [] : [at >= start && at < end];
  });
}

/** Per order on site, or past its fulfilment deadline and not cancelled first: whether it was on site by then. */
function onSiteByDeadline(orders: WindowOrders, arrivedAt: Map<string, Date>, now: Date): boolean[] {
  return orders.flatMap((order) => {
    const deadline = fulfilmentDeadline(order.urgency, new Date(order.created_at));
    const at = arrivedAt.get(order.id);
    if (at) return [at <= deadline];
    return order.status === "cancelled" || deadline > now ? [] : [false];
  });
}

/** Per order past its fulfilment deadline and not cancelled: whether it has no contractor now. */
function unassignedPastDeadline(orders: WindowOrders, now: Date): boolean[] {
  return orders.flatMap((order) =>
    order.status === "cancelled" || fulfilmentDeadline(order.urgency, new Date(order.created_at)) > now
      ? []
      : [order.contractor_id === null],
  );
}

/** The measured metrics over a window's orders; a metric without records is null and marked unavailable. */
function metricsOf(
  orders: WindowOrders,
  counted: { overriddenOrders: number; revisedOrders: number },
  arrivedAt: Map<string, Date>,
) {
  const { overriddenOrders, revisedOrders } = counted;
  const arrived = arrivalsInWindow(orders, arrivedAt);
  const closed = orders.filter((order) => isFinal(order.status));
  const completed = orders.filter((order) => order.status === "completed");
  const completedWithNte = completed.filter(
    (order): order is WindowOrder & { nte_cents: number; final_cost_cents: number } =>
      order.nte_cents !== null && order.final_cost_cents !== null,
  );
  const latencies = orders
    .map((order) => order.dispatch_latency_ms)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  return {
    goal_fulfillment_rate: ratio(orders.filter((order) => order.contractor_id !== null).length, orders.length),
    completion_rate: ratio(completed.length, closed.length),
    nte_accuracy_rate: ratio(
      completedWithNte.filter((order) => order.final_cost_cents <= order.nte_cents).length,
      completedWithNte.length,
    ),
    dispatch_latency_p50_ms: percentile(latencies, 50),
    dispatch_latency_p95_ms: percentile(latencies, 95),
    human_override_rate: ratio(overriddenOrders, orders.length),
    cancellation_rate: ratio(orders.filter((order) => order.status === "cancelled").length, orders.length),
    escalation_rate: ratio(orders.filter((order) => order.escalated_at !== null).length, orders.length),
    window_adherence_rate: shareTrue(arrived),
    price_revision_rate: ratio(revisedOrders, orders.length),
    quote_turnaround_minutes: {
      value: 120,
      unit: "minutes",
      provenance: "self_reported_estimate",
      sample_size: 0,
      note: "Published target (under 2 hours), not measured.",
    } satisfies Metric,
  };
}

async function computeDocument(db: Db, period: EvalPeriod) {
  const end = nowDate();
  const start = new Date(end.getTime() - evalPeriods[period] * 86_400_000);
  const { orders, overriddenOrders, arrivedAt, revisedOrders } = await windowFacts(db, start);
  const metrics = {
    ...metricsOf(orders, { overriddenOrders, revisedOrders }, arrivedAt),
    on_site_within_deadline_rate: shareTrue(onSiteByDeadline(orders, arrivedAt, end)),
    unassigned_rate: shareTrue(unassignedPastDeadline(orders, end)),
    ...planMetrics(await planFacts(db, start)),
    ...offerMetrics(await offerFacts(db, start)),
  };
  const provenance = Object.fromEntries(Object.entries(metrics).map(([name, metric]) => [name, metric.provenance]));
  return {
    period,
    window: { start: start.toISOString(), end: end.toISOString() },
    generated_at: end.toISOString(),
    estimated: Object.values(metrics).some((metric) => metric.provenance === "self_reported_estimate"),
    methodology,
    metrics,
    trust_signals: trustSignals,
    provenance,
    disclaimer: "Self-reported; not an independent audit or a service-level guarantee.",
  };
}

type EvalsDocument = Awaited<ReturnType<typeof computeDocument>>;

/** `cacheMs` 0 computes every call (tests); otherwise callers within the interval share one computation. */
export function createEvalsService(db: Db, cacheMs: number) {
  const documents = new LRUCache<EvalPeriod, EvalsDocument>({
    max: Object.keys(evalPeriods).length,
    ttl: Math.max(1, cacheMs),
    fetchMethod: (period) => computeDocument(db, period),
  });
  return {
    async document(period: EvalPeriod): Promise<EvalsDocument> {
      return cacheMs === 0 ? computeDocument(db, period) : (await documents.fetch(period))!;
    },
  };
}
