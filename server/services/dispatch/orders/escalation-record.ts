// An order's escalation written once, in the caller's transaction under its row lock: when, why and the deadline
// on the order, an `order.escalated` event and an audit record. dispatcher/escalate.ts decides when and why.
import type { Knex } from "knex";
import type { OrderRow } from "../../../db/tables/dispatch.js";
import { appendAudit } from "../../audit/entries.js";
import { writeOrderEvents } from "./event-writes.js";
import type { Schemas } from "../../../types/contract.js";

export async function recordEscalation(
  trx: Knex.Transaction,
  row: OrderRow,
  change: { escalation: Schemas["Escalation"]; at: Date; deadline: Date; base: string },
): Promise<void> {
  const { escalation, at, deadline, base } = change;
  const tenant = { account: row.account, environment: row.environment };
  await trx("orders").where({ id: row.id }).update({
    escalated_at: at,
    escalation_reason: escalation.reason,
    escalation_deadline_at: deadline,
    updated_at: at,
  });
  await writeOrderEvents(trx, row, [{ type: "order.escalated", data: { escalation } }], { now: at, base });
  await appendAudit(trx, { type: "escalation", tenant, subject: row.id, content: { ...escalation } });
}
