// The contractor side: a key may be bound to one contractor (api_keys.contractor_id), and an assignment is an
// offer to that contractor until it answers (services/dispatch/offers/). A partial unique index allows one open
// offer per order, so one answer wins per offer across instances; open offers are indexed by deadline for the
// sweep (docs/decisions.md, "Contractor offers in storage").
import type { Knex } from "knex";

const statuses = ["offered", "accepted", "declined", "expired", "withdrawn"];

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("api_keys", (t) => {
    t.string("contractor_id", 40);
  });
  await db.schema.createTable("order_offers", (t) => {
    t.string("id", 40).primary();
    t.string("order_id", 40).notNullable().references("id").inTable("orders").onDelete("cascade");
    t.string("contractor_id", 40).notNullable();
    t.string("account", 100).notNullable();
    t.string("environment", 4).notNullable();
    t.string("status", 12).notNullable().defaultTo("offered");
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("deadline_at", { useTz: true }).notNullable();
    t.timestamp("responded_at", { useTz: true });
    t.string("decline_reason", 40);
    t.string("note", 1000);
  });
  const listed = statuses.map((status) => `'${status}'`).join(", "); // constants: DDL takes no bind parameters
  await db.raw(`alter table order_offers
    add constraint order_offers_status check (status in (${listed})),
    add constraint order_offers_environment check (environment in ('live', 'test')),
    add constraint order_offers_answered check ((status = 'offered') = (responded_at is null))`);
  await db.raw("create unique index order_offers_open on order_offers (order_id) where status = 'offered'");
  await db.raw("create index order_offers_due on order_offers (deadline_at) where status = 'offered'");
  await db.raw("create index order_offers_by_contractor on order_offers (contractor_id, environment, created_at, id)");
  await db.raw("create index order_offers_by_order on order_offers (order_id, contractor_id)");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable("order_offers");
  await db.schema.alterTable("api_keys", (t) => {
    t.dropColumn("contractor_id");
  });
}
