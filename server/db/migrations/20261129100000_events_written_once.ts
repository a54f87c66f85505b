// Events are written once, complete: each order_events row keeps what its event shows of the order as its change
// left it (previous status, reference id, contractor, quoted cost), so the feed never reads the order's current row.
// Existing rows: previous_status and reference_id are exact; contractor and cost are approximate for an order
// re-assigned before offers were kept or whose offers share an instant (a frozen sandbox clock), and the cost where
// the audit log has no match record for a contractor that no longer holds the order.
import type { Knex } from "knex";

const statusTypes = "('order.created', 'order.status_changed', 'order.cancelled')";

/** The status event before the one a row belongs to (itself, or the one a fact follows): the rule the feed read. */
const previousStatus = `(select p.status from order_events p
  where p.order_id = e.order_id and p.type in ${statusTypes} and p.id < (
    select max(s.id) from order_events s where s.order_id = e.order_id and s.id <= e.id and s.type in ${statusTypes})
  order by p.id desc limit 1)`;

/** The contractor whose offer held the order at the event: opened by then, not declined or expired before it (an
 * order with no offers, assigned before they were kept: its current contractor). */
const offeredContractor = `(select f.contractor_id from order_offers f
  where f.order_id = e.order_id and f.created_at <= e.at
    and not (f.status in ('declined', 'expired') and f.responded_at < e.at)
  order by f.created_at desc, f.id desc limit 1)`;

const shownOfOrder = `
  update order_events e
     set previous_status = ${previousStatus},
         reference_id = o.reference_id,
         contractor_id = case
           when e.status = 'accepted_pending_fulfilment' then null
           when exists (select 1 from order_offers f where f.order_id = e.order_id) then ${offeredContractor}
           else o.contractor_id end
    from orders o
   where o.id = e.order_id`;

/** Audit content is canonical JSON; a row that is not (tampered with) gives nothing rather than failing the upgrade. */
const tryJsonb = `
create function events_written_once_try_jsonb(t text) returns jsonb language plpgsql immutable as $$
begin
  return t::jsonb;
exception when others then
  return null;
end $$`;

/** A contractor's price for the order, as the audit log's latest match record naming it says (used for one that no
 * longer holds the order; for the one that does, the order's quoted cost). */
const matchedCost = `(select (events_written_once_try_jsonb(a.content) ->> 'quoted_cost_cents')::integer
  from audit_records a join contractors c on c.id = e.contractor_id
  where a.type = 'match' and a.subject = e.order_id
    and events_written_once_try_jsonb(a.content) ->> 'contractor_ref' = c.ref
  order by a.position desc limit 1)`;

const costOfOrder = `
  update order_events e
     set quoted_cost_cents = case
           when e.contractor_id is null then null
           when e.contractor_id = o.contractor_id then o.quoted_cost_cents
           else coalesce(${matchedCost}, o.quoted_cost_cents) end
    from orders o
   where o.id = e.order_id`;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("order_events", (t) => {
    t.string("previous_status", 32);
    t.string("reference_id", 255);
    t.string("contractor_id", 40);
    t.integer("quoted_cost_cents");
  });
  await db.raw(shownOfOrder);
  await db.raw(tryJsonb);
  await db.raw(costOfOrder);
  await db.raw("drop function events_written_once_try_jsonb(text)");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable("order_events", (t) => {
    t.dropColumn("quoted_cost_cents");
    t.dropColumn("contractor_id");
    t.dropColumn("reference_id");
    t.dropColumn("previous_status");
  });
}
