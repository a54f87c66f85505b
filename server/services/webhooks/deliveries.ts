// The account's view of its webhook deliveries (outbox rows): list them, and queue one again.
import type { Tenant } from "../access/principal.js";
import type { Knex } from "knex";
import { DomainError } from "../errors.js";
import { newestByPosition, pageByPosition } from "../shared/keyset.js";
import { isEventType, type EventType } from "../../generated/events.js";
import { eventId } from "../events/feed.js";

export type DeliveryState = "pending" | "delivered" | "dead";
export interface DeliveryFilter {
  order_id?: string;
  state?: DeliveryState;
  limit: number;
  cursor?: string;
}
interface DeliveryRow {
  id: number | string;
  message_id: string;
  event_id: number | string | null;
  /** What a message queued before `event_id` recorded of its event's type. */
  stored_type: string | null;
  order_id: string;
  status: DeliveryState;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | string;
  created_at: Date | string;
}

const deliveryId = (id: number | string) => `dlv_${id}`;
const columns = (db: Knex) => [
  "id",
  "message_id",
  "event_id",
  db.raw("payload->>'type' as stored_type"),
  "order_id",
  "status",
  "attempts",
  "last_status_code",
  "last_error",
  "next_attempt_at",
  "created_at",
];

/** What a delivery shows of its event: the feed id (until then the message's placeholder) and the type. */
interface EventFacts {
  id: number | string;
  seq: number | string | null;
  type: EventType;
}

async function eventsOf(db: Knex, rows: DeliveryRow[]): Promise<Map<string, EventFacts>> {
  const ids = rows.flatMap((row) => (row.event_id === null ? [] : [String(row.event_id)]));
  const events = ids.length
    ? await db("order_events as e").whereIn("e.id", ids).select<EventFacts[]>("e.id", "e.seq", "e.type")
    : [];
  return new Map(events.map((event) => [String(event.id), event]));
}

/** A message without its event (written before events were referenced) keeps the type its payload stored. */
const storedType = (stored: string | null): EventType =>
  stored !== null && isEventType(stored) ? stored : "order.status_changed";

function viewOf(row: DeliveryRow, event: EventFacts | undefined) {
  return {
    id: deliveryId(row.id),
    event_id: event?.seq != null ? eventId(Number(event.seq)) : row.message_id,
    event_type: event ? event.type : storedType(row.stored_type),
    order_id: row.order_id,
    state: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code ?? null,
    last_error: row.last_error ?? null,
    next_attempt_at: row.status === "pending" ? new Date(row.next_attempt_at).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** The rows as WebhookDelivery items, with their events read in one query. */
async function viewsOf(db: Knex, rows: DeliveryRow[]) {
  const events = await eventsOf(db, rows);
  return rows.map((row) => viewOf(row, row.event_id === null ? undefined : events.get(String(row.event_id))));
}

/** listWebhookDeliveries: newest first, keyset-paged by id (one transaction's messages share created_at). */
export async function listDeliveries(db: Knex, tenant: Tenant, filter: DeliveryFilter) {
  const query = newestByPosition(db("webhook_outbox").where(tenant).select<DeliveryRow[]>(columns(db)), filter, "id");
  if (filter.order_id) query.where({ order_id: filter.order_id });
  if (filter.state) query.where({ status: filter.state });
  const { page, next_cursor } = pageByPosition(await query, filter.limit, (row) => Number(row.id));
  return { items: await viewsOf(db, page), next_cursor };
}

/** redeliverWebhookDelivery: pending again with an attempt due now; 404 for another tenant's or an unknown id. */
export async function redeliver(db: Knex, tenant: Tenant, id: string) {
  const [row] = await db("webhook_outbox")
    .where(tenant)
    .whereRaw("id = ?", [id.replace(/^dlv_/, "")]) // up to 18 digits: bound as text, never rounded to a double
    .update({ status: "pending", next_attempt_at: db.fn.now() })
    .returning<DeliveryRow[]>(columns(db));
  if (!row) throw new DomainError("not_found", "not_found", `No webhook delivery ${id} for this account.`);
  return (await viewsOf(db, [row]))[0];
}
