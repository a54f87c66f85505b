// Customer lifecycle: who cancelled and why, and an index for listing an account's orders newest first.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("orders", (t) => {
    t.jsonb("cancellation"); // {reason, note, by, at}; null until cancelled
    t.index(["account", "created_at", "id"], "orders_account_created_idx");
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable("orders", (t) => {
    t.dropIndex(["account", "created_at", "id"], "orders_account_created_idx");
    t.dropColumn("cancellation");
  });
}
