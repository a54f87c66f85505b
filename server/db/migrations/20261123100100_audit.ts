// Append-only audit trail: each record hashes the previous record's hash and its own canonical content.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("audit_records", (t) => {
    t.bigIncrements("position");
    t.string("seal", 69).notNullable().unique();
    t.string("prev_hash", 64).notNullable();
    t.string("type", 32).notNullable();
    t.string("account", 100);
    t.string("subject", 100).notNullable();
    t.text("content").notNullable();
    t.timestamp("recorded_at", { useTz: true }).notNullable();
    t.index(["account", "position"]);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists("audit_records");
}
