// An order's events written after its creation (events/event-row.ts rows, a webhook message each), in the caller's
// transaction under the order's row lock; creation writes its own in its group-commit statement (writer.ts).
import type { Knex } from "knex";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { enqueueStatusChange } from "../../webhooks/outbox.js";
import { isStatusEvent, statusEventTypes } from "../../events/catalogue.js";
import { eventRowsOf, type EventWrite, type OrderAsChanged } from "../../events/event-row.js";
import { recordJobEvents } from "./contractor-events.js";

export type { EventWrite } from "../../events/event-row.js";

type Recipient = Pick<OrderRow, "id" | "account" | "environment" | "callback_url">;

/** A webhook message per event of `eventIds` (in feed order) when the order has a callback_url. */
async function enqueueEvents(trx: Knex.Transaction, row: Recipient, eventIds: number[], base: string) {
  if (!row.callback_url) return;
  const tenant = { account: row.account, environment: row.environment };
  for (const eventId of eventIds)
    await enqueueStatusChange(trx, { orderId: row.id, tenant, url: row.callback_url, base }, eventId);
}

/** The status before the order's latest status change: what facts written on their own show. */
async function previousOfLatestChange(trx: Knex.Transaction, orderId: string) {
  const latest = await trx("order_events")
    .where({ order_id: orderId })
    .whereIn("type", statusEventTypes)
    .orderBy("id", "desc")
    .first("previous_status");
  return latest?.previous_status ?? null;
}

/** A change that moves the order names the status it moved from; its events open with the status event. */
export interface EventChange {
  now: Date;
  base: string;
  movedFrom?: OrderRow["status"];
}

/** Writes the events of one change and their webhook messages; their ids, ascending. */
export async function writeOrderEvents(
  trx: Knex.Transaction,
  order: OrderAsChanged & Recipient,
  events: EventWrite[],
  change: EventChange,
): Promise<number[]> {
  const moves = events.some((event) => isStatusEvent(event.type));
  if (moves !== (change.movedFrom !== undefined))
    throw new Error(`order ${order.id}: a status event is written with the status it moved from, a fact without`);
  const previousStatus = change.movedFrom ?? (await previousOfLatestChange(trx, order.id));
  const rows = eventRowsOf(order, events, { at: change.now, previousStatus }).map((row) => ({
    ...row,
    data: row.data === null ? null : JSON.stringify(row.data),
  }));
  const ids = (await trx("order_events").insert(rows).returning("id")).map((w) => w.id).sort((a, b) => a - b);
  await enqueueEvents(trx, order, ids, change.base);
  await recordJobEvents(trx, order, events, change.now);
  return ids;
}
