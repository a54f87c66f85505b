// The event feed: order_events rows as webhook-shaped events (`evt_<row id>`), oldest first, per account or order.
import type { Knex } from "knex";
import { maskRef } from "../shared/ids.js";
import { statusUrl } from "../dispatch/order-lifecycle.js";

/** The columns eventRows() selects (ids may arrive as strings: bigint over raw SQL). */
export interface EventRow {
  id: number | string;
  order_id: string;
  status: string;
  at: Date | string;
  final_cost_cents: number | null;
  account: string;
  environment: "test" | "live";
  reference_id: string | null;
  contractor_id: string | null;
  quoted_cost_cents: number | null;
  previous_status: string | null;
}
type Conn = Knex | Knex.Transaction;
export interface DispatchEvent {
  id: string;
  type: "order.created" | "order.status_changed" | "order.cancelled";
  timestamp: string;
  data: Record<string, unknown>;
}
export interface EventScope {
  account?: string;
  environment?: "test" | "live";
  orderId?: string;
}

export const eventId = (seq: number) => `evt_${seq}`;
export const seqOf = (id: string | undefined) => (id ? Number(/^evt_(\d{1,18})$/.exec(id)?.[1] ?? 0) : 0);

/** Rows with everything an event needs; the contractor and quote are fixed once assigned, so they are exact. */
export function eventRows(db: Conn, afterSeq: number, scope: EventScope) {
  const query = db("order_events as e")
    .join("orders as o", "o.id", "e.order_id")
    .where("e.id", ">", afterSeq)
    .orderBy("e.id")
    .select(
      "e.id",
      "e.order_id",
      "e.status",
      "e.at",
      "e.final_cost_cents",
      "o.account",
      "o.environment",
      "o.reference_id",
      "o.contractor_id",
      "o.quoted_cost_cents",
      db.raw(
        "(select p.status from order_events p where p.order_id = e.order_id and p.id < e.id order by p.id desc limit 1) as previous_status",
      ),
    );
  if (scope.account) query.where("o.account", scope.account);
  if (scope.environment) query.where("o.environment", scope.environment);
  if (scope.orderId) query.where("e.order_id", scope.orderId);
  return query;
}

/** One row as the event customers see; `data` is the order webhook's payload. */
export function toEvent(row: EventRow, base: string): DispatchEvent {
  const at = new Date(row.at).toISOString();
  const unassigned = row.status === "accepted_pending_fulfilment";
  return {
    id: eventId(Number(row.id)),
    type:
      row.previous_status === null
        ? "order.created"
        : row.status === "cancelled"
          ? "order.cancelled"
          : "order.status_changed",
    timestamp: at,
    data: {
      order_id: row.order_id,
      status: row.status,
      previous_status: row.previous_status ?? null,
      reference_id: row.reference_id ?? null,
      assigned_contractor_ref: !unassigned && row.contractor_id ? maskRef(row.contractor_id) : null,
      quoted_cost_cents: unassigned ? null : (row.quoted_cost_cents ?? null),
      final_cost_cents: row.final_cost_cents ?? null,
      status_url: statusUrl(base, row.order_id),
      at,
    },
  };
}

/** listEvents / listOrderEvents as JSON. */
export async function eventPage(db: Conn, afterSeq: number, scope: EventScope, limit: number, base: string) {
  const items = (await eventRows(db, afterSeq, scope).limit(limit)).map((row: EventRow) => toEvent(row, base));
  return { items, next_after: items.at(-1)?.id ?? null };
}
