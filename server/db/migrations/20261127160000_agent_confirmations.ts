// Confirmation tokens of the agents' tools that ask before they act (services/agents/confirmations.ts): one row
// per preview, keyed by the token's hash (the token itself is never stored), bound to the key, its tenant, the
// capability and the hash of the exact arguments. `used_at` makes a token single-use across instances (a
// conditional UPDATE consumes it); rows are bounded by their 5-minute life and purged per key on each new preview.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("agent_confirmations", (t) => {
    t.string("token_hash", 64).primary();
    t.string("caller_id", 100).notNullable();
    t.string("account", 100).notNullable();
    t.string("environment", 4).notNullable();
    t.string("capability", 60).notNullable();
    t.string("arguments_hash", 64).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("used_at", { useTz: true });
  });
  await db.raw("create index agent_confirmations_by_caller on agent_confirmations (caller_id, expires_at)");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable("agent_confirmations");
}
