// New orders written in one statement of data-modifying CTEs, shared by orders that arrive together (group commit)
// (docs/decisions.md#the-order-core-modules).
import type { Db } from "../../../db/knex.js";
import type { Environment, Tenant } from "../../access/principal.js";
import { createGroupCommit } from "../../../db/group-commit.js";
import { columnList, insertJsonRows, selectJsonRows } from "../../../db/json-rows.js";
import { auditRowColumns, type AuditRow } from "../../audit/entries.js";
import { statusChangeMessage } from "../../webhooks/outbox.js";
import { insertMissingSecrets } from "../../webhooks/secrets.js";
import { factsOf } from "../../events/catalogue.js";
import { eventRowsOf } from "../../events/event-row.js";
import { etaView, type EtaColumns } from "./eta.js";
import { arrivalWindowOf } from "./arrival-window.js";
import { bookingColumns, type bookingRow } from "../bookings.js";
import { offerColumns, type offerRow } from "./offer-records.js";
import type { JobRow } from "./offer-view.js";
import { contractorEventColumns, offerCreatedRow } from "./contractor-events.js";
import { revisionData } from "./revision-records.js";
import type { OrderRow, PriceRevisionRow } from "../../../db/tables/dispatch.js";

export interface NewOrder {
  row: Record<string, unknown> &
    Pick<OrderRow, "id" | "status" | "contractor_id" | "reference_id" | "quoted_cost_cents" | "created_at"> &
    Tenant &
    EtaColumns &
    JobRow;
  note: string;
  records: AuditRow[];
  webhook: Parameters<typeof statusChangeMessage>[0] | null;
  /** The seats an assigned order books, inserted in the same statement. */
  booking: ReturnType<typeof bookingRow> | null;
  /** The offer of the job to the assigned contractor (orders/offer-records.ts), inserted in the same statement. */
  offer: ReturnType<typeof offerRow> | null;
  /** The pending price revision of an order held over its NTE, inserted in the same statement. */
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

const eventColumns = [
  "order_id",
  "type",
  "status",
  "previous_status",
  "note",
  "human_override",
  "final_cost_cents",
  "at",
  "account",
  "environment",
  "reference_id",
  "contractor_id",
  "quoted_cost_cents",
  "data",
] as const satisfies readonly (keyof ReturnType<typeof eventRowsOf>[number])[];
const messageColumns = ["message_id", "order_id", "account", "environment", "url", "status_base_url"] as const;

/** The messages with `event_id`, each naming its event in `new_events` by order and `event_type`. */
const insertMessages = `insert into "webhook_outbox" (${columnList(messageColumns)}, "event_id")
  select ${messageColumns.map((c) => `m."${c}"`).join(", ")}, e.id
    from json_array_elements(?::json) j cross join lateral json_populate_record(null::"webhook_outbox", j) m
    join new_events e on e.order_id = m.order_id and e.type = j->>'event_type'`;

/** An order's events: order.created, then the facts of creation, then a held order's price revision. */
function eventsOf(order: NewOrder) {
  const { row } = order;
  const facts = factsOf(null, { ...row, eta: etaView(row), arrival_window: arrivalWindowOf(row) });
  const revision = order.revision
    ? [{ type: "order.price_revision_requested" as const, data: revisionData(order.revision) }]
    : [];
  const events = [{ type: "order.created" as const, note: order.note }, ...facts, ...revision];
  return eventRowsOf(row, events, { at: row.created_at, previousStatus: null });
}

/** The contractor feed's offer.created of an order offered at once. */
const offeredEvents = (order: NewOrder) => (order.offer ? [offerCreatedRow(order.offer, order.row)] : []);

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
      ["new_contractor_events", "contractor_events", contractorEventColumns, orders.flatMap(offeredEvents)],
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
