// New orders are written in ONE statement: the order row with its stored answer, its first event, its audit
// records and (with a callback_url) its webhook message, as data-modifying CTEs — atomic without BEGIN/COMMIT,
// and orders that arrive together share the statement (group commit). A reference_id or Idempotency-Key taken
// meanwhile fails the batch; group commit then writes each order alone, so only that order sees the 23505.
// With a callback_url the same statement gives the account its webhook secret if it has none yet, and the message
// references the order's first event by the id that statement gave it.
import type { Db } from "../../../db/knex.js";
import type { Environment, Tenant } from "../../access/principal.js";
import { createGroupCommit } from "../../../db/group-commit.js";
import { columnList, insertJsonRows, selectJsonRows } from "../../../db/json-rows.js";
import { auditRowColumns, type AuditRow } from "../../audit/entries.js";
import { statusChangeMessage } from "../../webhooks/outbox.js";
import { insertMissingSecrets } from "../../webhooks/secrets.js";

export interface NewOrder {
  row: Record<string, unknown> & { id: string; status: string; created_at: Date } & Tenant;
  /** The first event's note. */
  note: string;
  records: AuditRow[];
  webhook: Parameters<typeof statusChangeMessage>[0] | null;
}

const eventColumns = ["order_id", "status", "note", "at", "account", "environment"] as const;
const messageColumns = ["message_id", "order_id", "account", "environment", "url", "status_base_url"] as const;

/** The messages (one json parameter) with `event_id`, each its order's event from the `first_events` CTE. */
const insertMessages = `insert into "webhook_outbox" (${columnList(messageColumns)}, "event_id")
  select ${messageColumns.map((c) => `m."${c}"`).join(", ")}, e.id
    from json_populate_recordset(null::"webhook_outbox", ?::json) m join first_events e on e.order_id = m.order_id`;

/** Each tenant of a batch's webhook messages once. */
function tenantsOf(messages: { account: string; environment: Environment }[]): Tenant[] {
  const seen = new Map(messages.map((message) => [`${message.environment}:${message.account}`, message]));
  return [...seen.values()].map(({ account, environment }) => ({ account, environment }));
}

/** `eventsWritten` is told after each batch's statement (the feed sequencer's nudge). */
export function createOrderWriter(db: Db, eventsWritten: () => void) {
  return createGroupCommit<NewOrder>(async (orders) => {
    const events = orders.map((order) => ({
      order_id: order.row.id,
      status: order.row.status,
      note: order.note,
      at: order.row.created_at,
      account: order.row.account,
      environment: order.row.environment,
    }));
    const messages = orders.flatMap((order) => (order.webhook ? [statusChangeMessage(order.webhook)] : []));
    const orderColumns = Object.keys(orders[0].row); // every row comes from the same builder (new-order.ts)
    const json = (rows: unknown[]) => JSON.stringify(rows);
    let statement = db
      .with("new_orders", db.raw(insertJsonRows("orders", orderColumns), [json(orders.map((order) => order.row))]))
      .with(
        "first_events",
        db.raw(`${insertJsonRows("order_events", eventColumns)} returning id, order_id`, [json(events)]),
      );
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
