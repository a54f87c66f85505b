// What the order domain answers with: the status view (status events only; facts are feed events). Events as
// customers receive them are rendered by services/events/feed.ts.
import type { Knex } from "knex";
import type { OrderEventRow, OrderRow } from "../../../db/tables/dispatch.js";
import { statusUrl } from "../../shared/base-url.js";
import { maskRef } from "../../shared/ids.js";
import type { Schemas } from "../../../types/contract.js";
import { statusEventTypes } from "../../events/catalogue.js";
import { etaView } from "./eta.js";
import { arrivalWindowOf } from "./arrival-window.js";
import { latestRevisions, type PriceRevisionView } from "./revision-records.js";
import { nteCheck } from "../nte.js";

type OrderView = Schemas["OrderStatus"];
type Conn = Knex | Knex.Transaction;

export const trackingAuth = "Send the same x-api-key header.";
const iso = (value: Date | string) => new Date(value).toISOString();

function eventOf(event: OrderEventRow): Schemas["OrderEvent"] {
  return {
    status: event.status,
    at: iso(event.at),
    note: event.note ?? null,
    human_override: event.human_override,
    final_cost_cents: event.final_cost_cents ?? null,
  };
}

/** The order's escalation (dispatcher/escalate.ts), or null before one. */
function escalationOf(row: OrderRow): Schemas["Escalation"] | null {
  if (!row.escalated_at || !row.escalation_reason || !row.escalation_deadline_at) return null;
  return {
    reason: row.escalation_reason,
    deadline_at: iso(row.escalation_deadline_at),
    escalated_at: iso(row.escalated_at),
  };
}

function viewOf(
  row: OrderRow,
  history: { events: OrderEventRow[]; revision: PriceRevisionView | null },
  base: string,
): OrderView {
  const { events } = history;
  return {
    id: row.id,
    status: row.status,
    trade: row.trade,
    location: row.location,
    urgency: row.urgency,
    description: row.description,
    nte_cents: row.nte_cents ?? null,
    nte: nteCheck(row.nte_cents ?? undefined, row.quoted_cost_cents ?? null), // createOrder's `order.nte`, also here
    quoted_cost_cents: row.quoted_cost_cents ?? null,
    final_cost_cents: row.final_cost_cents ?? null,
    assigned_contractor_ref: row.contractor_id ? maskRef(row.contractor_id) : null,
    estimated_response_minutes: row.estimated_response_minutes ?? null,
    reference_id: row.reference_id ?? null,
    quote_id: row.quote_id ?? null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    events: events.map(eventOf),
    tracking: { status_url: statusUrl(base, row.id), auth: trackingAuth },
    cancellation: row.cancellation ?? null,
    escalation: escalationOf(row),
    eta: etaView(row),
    arrival_window: arrivalWindowOf(row),
    price_revision: history.revision,
  };
}

/** OrderStatus of the contract: the order with its event history. */
export async function statusView(db: Conn, row: OrderRow, base: string): Promise<OrderView> {
  const events = await db("order_events").where({ order_id: row.id }).whereIn("type", statusEventTypes).orderBy("id");
  const revision = (await latestRevisions(db, [row.id])).get(row.id) ?? null;
  return viewOf(row, { events, revision }, base);
}

/** statusView for a page of orders with one events query. */
export async function statusViews(db: Conn, rows: OrderRow[], base: string): Promise<OrderView[]> {
  const ids = rows.map((row) => row.id);
  const events = ids.length
    ? await db("order_events").whereIn("order_id", ids).whereIn("type", statusEventTypes).orderBy("id")
    : [];
  const revisions = await latestRevisions(db, ids);
  return rows.map((row) =>
    viewOf(
      row,
      { events: events.filter((event) => event.order_id === row.id), revision: revisions.get(row.id) ?? null },
      base,
    ),
  );
}
