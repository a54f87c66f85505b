// Webhooks: one signing secret per account, and a transactional outbox of order status changes to deliver.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("webhook_secrets", (t) => {
    t.string("account", 100).primary();
    t.string("secret", 100).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable("webhook_outbox", (t) => {
    t.bigIncrements("id");
    t.string("message_id", 40).notNullable().unique();
    t.string("order_id", 40).notNullable().references("orders.id");
    t.string("account", 100).notNullable();
    t.text("url").notNullable();
    t.jsonb("payload").notNullable();
    // pending -> delivered | dead
    t.string("status", 16).notNullable().defaultTo("pending");
    t.integer("attempts").notNullable().defaultTo(0);
    t.timestamp("next_attempt_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.text("last_error");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp("delivered_at", { useTz: true });
    t.index(["status", "next_attempt_at"]);
    t.index(["order_id", "id"]);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists("webhook_outbox");
  await db.schema.dropTableIfExists("webhook_secrets");
}
