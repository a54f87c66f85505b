// Price revisions: a request to raise an order's not-to-exceed, asked by the contractor holding the job or opened
// by the service for an order held over its NTE at creation, and the customer's one answer. An order has at most
// one pending revision (the partial UNIQUE index): two requests racing past the service's own check cannot both
// commit. An answer is a conditional UPDATE of the pending row under the order's row lock, so one answer wins per
// revision. Amounts are bounded as the contract bounds an NTE; the reason as its free text.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("order_price_revisions", (t) => {
    t.string("id", 40).primary();
    t.string("order_id", 40).notNullable().references("id").inTable("orders").onDelete("cascade");
    t.string("account", 100).notNullable();
    t.string("environment", 4).notNullable();
    t.string("status", 10).notNullable().defaultTo("pending");
    t.string("requested_by", 12).notNullable();
    t.string("contractor_id", 40);
    t.integer("amount_cents").notNullable();
    t.string("reason", 1000).notNullable();
    t.integer("nte_cents");
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("resolved_at", { useTz: true });
  });
  await db.raw(`alter table order_price_revisions
    add constraint order_price_revisions_status check (status in ('pending', 'approved', 'declined')),
    add constraint order_price_revisions_requested_by check (requested_by in ('dispatch', 'contractor')),
    add constraint order_price_revisions_environment check (environment in ('live', 'test')),
    add constraint order_price_revisions_amount check (amount_cents between 1 and 100000000),
    add constraint order_price_revisions_resolved check ((status = 'pending') = (resolved_at is null))`);
  await db.raw(
    "create unique index order_price_revisions_pending on order_price_revisions (order_id) where status = 'pending'",
  );
  await db.raw("create index order_price_revisions_by_order on order_price_revisions (order_id, created_at)");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable("order_price_revisions");
}
