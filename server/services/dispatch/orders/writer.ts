// New orders are written in ONE statement: the order row with its stored answer, its events (order.created, then
// the facts of creation: order.assigned when matched at once), its audit records and (with a callback_url) a
// webhook message per event, as data-modifying CTEs — atomic without BEGIN/COMMIT, and orders that arrive together
// share the statement (group commit). A reference_id or Idempotency-Key taken meanwhile fails the batch; group
// commit then writes each order alone, so only that order sees the 23505. With a callback_url the same statement
// gives the account its webhook secret if it has none yet, and each message references its event by the id that
// statement gave it. An assigned order's booking (its window and day seats, bookings.ts) is one more CTE: a seat
// another instance took meanwhile fails the statement with 23505 like a taken key, and only that order retries. The offer of an
// assigned order to its contractor is one more CTE. Events are inserted from one JSON array in array order, so each order's status event takes a
// smaller id (and so an earlier place in the feed) than the facts after it.
import type { Db } from "../../../db/knex.js";
import type { Environment, Tenant } from "../../access/principal.js";
import { createGroupCommit } from "../../../db/group-commit.js";
import { columnList, insertJsonRows, selectJsonRows } from "../../../db/json-rows.js";
import { auditRowColumns, type AuditRow } from "../../audit/entries.js";
import { statusChangeMessage } from "../../webhooks/outbox.js";
import { insertMissingSecrets } from "../../webhooks/secrets.js";
import { factsOf } from "../../events/catalogue.js";
import { etaView, type EtaColumns } from "./eta.js";
import { bookingColumns, type bookingRow } from "../bookings.js";
import { offerColumns, type offerRow } from "../offers/records.js";
import { revisionData } from "../revisions/records.js";
import type { PriceRevisionRow } from "../../../db/tables/dispatch.js";

export interface NewOrder {
  row: Record<string, unknown> & {
    id: string;
    status: string;
    contractor_id: string | null;
    created_at: Date;
  } & Tenant &
    EtaColumns;
  /** The first event's note. */
  note: string;
  records: AuditRow[];
  webhook: Parameters<typeof statusChangeMessage>[0] | null;
  /** The seats an assigned order books, inserted in the same statement. */
  booking: ReturnType<typeof bookingRow> | null;
  /** The offer of the job to the assigned contractor (offers/records.ts), inserted in the same statement. */
  offer: ReturnType<typeof offerRow> | null;
  /** The pending price revision of an order held over its NTE (revisions/records.ts), inserted in the same
   * statement and announced by an order.price_revision_requested event after order.created. */
  revision: PriceRevisionRow | null;
}

const revisionColumns = [
  "id",
  "order_id",
  "account",
  "environment",
  "status",
  "requested_by",
  "contractor_id",
  "amount_cents",
  "reason",
  "nte_cents",
  "created_at",
] as const;

const eventColumns = ["order_id", "type", "status", "note", "at", "account", "environment", "data"] as const;
const messageColumns = ["message_id", "order_id", "account", "environment", "url", "status_base_url"] as const;

/** The messages (one json parameter) with `event_id`: each names its event in the `new_events` CTE by the order
 * and the `event_type` (one event per type per order). */
const insertMessages = `insert into "webhook_outbox" (${columnList(messageColumns)}, "event_id")
  select ${messageColumns.map((c) => `m."${c}"`).join(", ")}, e.id
    from json_array_elements(?::json) j cross join lateral json_populate_record(null::"webhook_outbox", j) m
    join new_events e on e.order_id = m.order_id and e.type = j->>'event_type'`;

/** An order's events: order.created, then the facts of creation, then a held order's price revision. */
function eventsOf(order: NewOrder) {
  const { row } = order;
  const common = { order_id: row.id, status: row.status, at: row.created_at, account: row.account };
  const facts = factsOf(null, { ...row, eta: etaView(row) }).map((fact) => ({
    ...common,
    type: fact.type,
    note: null,
    data: fact.data,
  }));
  const revision = order.revision
    ? [{ ...common, type: "order.price_revision_requested", note: null, data: revisionData(order.revision) }]
    : [];
  return [{ ...common, type: "order.created", note: order.note, data: null }, ...facts, ...revision].map((event) => ({
    ...event,
    environment: row.environment,
  }));
}

/** Each tenant of a batch's webhook messages once. */
function tenantsOf(messages: { account: string; environment: Environment }[]): Tenant[] {
  const seen = new Map(messages.map((message) => [`${message.environment}:${message.account}`, message]));
  return [...seen.values()].map(({ account, environment }) => ({ account, environment }));
}

/** `eventsWritten` is told after each batch's statement (the feed sequencer's nudge). */
export function createOrderWriter(db: Db, eventsWritten: () => void) {
  return createGroupCommit<NewOrder>(async (orders) => {
    const events = orders.map(eventsOf);
    const messages = orders.flatMap((order, i) => {
      const { webhook } = order;
      return webhook ? events[i].map((event) => ({ ...statusChangeMessage(webhook), event_type: event.type })) : [];
    });
    const orderColumns = Object.keys(orders[0].row); // every row comes from the same builder (new-order.ts)
    const json = (rows: unknown[]) => JSON.stringify(rows);
    let statement = db
      .with("new_orders", db.raw(insertJsonRows("orders", orderColumns), [json(orders.map((order) => order.row))]))
      .with(
        "new_events",
        db.raw(`${insertJsonRows("order_events", eventColumns)} returning id, order_id, type`, [json(events.flat())]),
      );
    // the rows some orders of the batch have: one CTE each when any has one
    for (const [name, table, columns, rows] of [
      ["new_bookings", "contractor_bookings", bookingColumns, orders.flatMap((order) => order.booking ?? [])],
      ["new_offers", "order_offers", offerColumns, orders.flatMap((order) => order.offer ?? [])],
      ["new_revisions", "order_price_revisions", revisionColumns, orders.flatMap((order) => order.revision ?? [])],
    ] as const)
      if (rows.length > 0) statement = statement.with(name, db.raw(insertJsonRows(table, columns), [json(rows)]));
    if (messages.length > 0)
      statement = statement
        .with("secrets", insertMissingSecrets(db, tenantsOf(messages)))
        .with("webhooks", db.raw(insertMessages, [json(messages)]));
    await statement
      .into(db.raw(`"audit_records" (${columnList(auditRowColumns)})`))
      .insert(
        db.raw(selectJsonRows("audit_records", auditRowColumns), [json(orders.flatMap((order) => order.records))]),
      );
    eventsWritten();
  });
}

export type OrderWriter = ReturnType<typeof createOrderWriter>;
