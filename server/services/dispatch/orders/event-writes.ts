// An order's events written after its creation (a lifecycle step's status event and facts, a re-offer, a
// reschedule, an escalation): the feed rows under the order's tenant, in the order given, and a webhook message per
// event when the order has a callback_url, inside the caller's transaction. Creation writes its events in its own
// group-commit statement (writer.ts).
import type { Knex } from "knex";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import type { EventType } from "../../../generated/events.js";
import { enqueueStatusChange } from "../../webhooks/outbox.js";

/** One event: its type, the status it carries (the order's when absent), and a fact's data, note or final cost. */
export interface OrderEventWrite {
  type: EventType;
  status?: OrderRow["status"];
  data?: unknown;
  note?: string | null;
  final_cost_cents?: number | null;
}

/** A webhook message per event of `eventIds` (in feed order) when the order has a callback_url. */
export async function enqueueEvents(trx: Knex.Transaction, row: OrderRow, eventIds: number[], base: string) {
  if (!row.callback_url) return;
  const tenant = { account: row.account, environment: row.environment };
  for (const eventId of eventIds)
    await enqueueStatusChange(trx, { orderId: row.id, tenant, url: row.callback_url, base }, eventId);
}

/** Writes the events (ids in the order given) and their webhook messages; their ids, ascending. */
export async function writeOrderEvents(
  trx: Knex.Transaction,
  row: OrderRow,
  events: OrderEventWrite[],
  at: { now: Date; base: string },
): Promise<number[]> {
  const rows = events.map((event) => ({
    order_id: row.id,
    type: event.type,
    status: event.status ?? row.status,
    at: at.now,
    account: row.account,
    environment: row.environment,
    note: event.note ?? null,
    data: event.data === undefined || event.data === null ? null : JSON.stringify(event.data),
    ...(event.final_cost_cents === undefined ? {} : { final_cost_cents: event.final_cost_cents }),
  }));
  const ids = (await trx("order_events").insert(rows).returning("id")).map((w) => w.id).sort((a, b) => a - b);
  await enqueueEvents(trx, row, ids, at.base);
  return ids;
}
