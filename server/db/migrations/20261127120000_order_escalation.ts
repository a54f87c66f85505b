// Escalation (issue 33, item 4): an order still unassigned at its urgency's fulfilment deadline is handed to people
// once (services/dispatch/dispatcher/escalate.ts). The order keeps when, why and the deadline it passed: all three
// set together or none (a check), the reason one of the contract's codes in at most 40 characters. A partial index
// serves the dispatcher's question, "which unassigned orders have not been escalated yet", without reading the
// orders that moved on.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("orders", (t) => {
    t.timestamp("escalated_at", { useTz: true });
    t.string("escalation_reason", 40);
    t.timestamp("escalation_deadline_at", { useTz: true });
  });
  await db.raw(`alter table orders add constraint orders_escalation_whole check (
    (escalated_at is null and escalation_reason is null and escalation_deadline_at is null)
    or (escalated_at is not null and escalation_reason is not null and escalation_deadline_at is not null))`);
  await db.raw(`create index orders_awaiting_escalation on orders (urgency, created_at)
    where status = 'accepted_pending_fulfilment' and escalated_at is null`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw("drop index if exists orders_awaiting_escalation");
  await db.raw("alter table orders drop constraint if exists orders_escalation_whole");
  await db.schema.alterTable("orders", (t) => {
    t.dropColumn("escalation_deadline_at");
    t.dropColumn("escalation_reason");
    t.dropColumn("escalated_at");
  });
}
