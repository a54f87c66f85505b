// Keys, contractor pool, quotes, orders and their events, OAuth clients and tokens.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("api_keys", (t) => {
    t.string("id", 40).primary();
    t.string("account", 100).notNullable().index();
    t.string("environment", 8).notNullable();
    t.string("prefix", 40).notNullable();
    t.string("key_hash", 64).notNullable().unique();
    t.string("label", 200);
    t.jsonb("scopes").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp("revoked_at", { useTz: true });
  });
  await db.schema.createTable("contractors", (t) => {
    t.string("id", 40).primary();
    t.string("ref", 40).notNullable();
    t.string("name", 200).notNullable();
    t.jsonb("trades").notNullable();
    t.jsonb("service_areas").notNullable();
    t.integer("hourly_rate_cents").notNullable();
    t.integer("base_response_minutes").notNullable();
    t.boolean("emergency_capable").notNullable().defaultTo(false);
    t.boolean("active").notNullable().defaultTo(true);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable("quotes", (t) => {
    t.string("id", 40).primary();
    t.string("principal", 100).notNullable();
    t.string("trade", 40).notNullable();
    t.string("state", 2).notNullable();
    t.string("urgency", 16).notNullable();
    t.boolean("available").notNullable();
    t.integer("estimated_cost_cents");
    t.integer("matched_contractors").notNullable();
    t.integer("latency_ms").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable("orders", (t) => {
    t.string("id", 40).primary();
    t.string("account", 100).notNullable();
    t.string("key_id", 40).notNullable();
    t.string("reference_id", 255);
    t.string("idempotency_key", 255);
    t.string("request_hash", 64).notNullable();
    t.string("status", 32).notNullable();
    t.string("trade", 40).notNullable();
    t.string("state", 2).notNullable();
    t.jsonb("location").notNullable();
    t.string("urgency", 16).notNullable();
    t.text("description").notNullable();
    t.integer("nte_cents");
    t.integer("quoted_cost_cents");
    t.string("contractor_id", 40).references("contractors.id");
    t.integer("estimated_response_minutes");
    t.text("callback_url");
    t.integer("final_cost_cents");
    t.integer("dispatch_latency_ms");
    t.integer("response_status").notNullable();
    t.text("response_body").notNullable(); // text, not jsonb: a replay must return the first answer byte for byte
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(["account", "reference_id"]);
    t.unique(["account", "idempotency_key"]);
    t.index(["created_at"]);
  });
  await db.schema.createTable("order_events", (t) => {
    t.bigIncrements("id");
    t.string("order_id", 40).notNullable().references("orders.id").index();
    t.string("status", 32).notNullable();
    t.text("note");
    t.boolean("human_override").notNullable().defaultTo(false);
    t.integer("final_cost_cents");
    t.timestamp("at", { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable("oauth_clients", (t) => {
    t.string("client_id", 40).primary();
    t.string("secret_hash", 64).notNullable();
    t.string("client_name", 200);
    t.string("scope", 200).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp("expires_at", { useTz: true }).notNullable();
  });
  await db.schema.createTable("oauth_tokens", (t) => {
    t.string("token_hash", 64).primary();
    t.string("client_id", 40).notNullable().references("oauth_clients.client_id");
    t.string("scope", 200).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp("expires_at", { useTz: true }).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of [
    "oauth_tokens",
    "oauth_clients",
    "order_events",
    "orders",
    "quotes",
    "contractors",
    "api_keys",
  ]) {
    await db.schema.dropTableIfExists(table);
  }
}
