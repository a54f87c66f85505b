// Webhook deliveries as the account sees them: the receiver's last status code, and listing newest first.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("webhook_outbox", (t) => {
    t.integer("last_status_code"); // null before the first attempt, or when the last one got no answer
    t.index(["account", "created_at", "id"], "webhook_outbox_account_created_idx");
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable("webhook_outbox", (t) => {
    t.dropIndex(["account", "created_at", "id"], "webhook_outbox_account_created_idx");
    t.dropColumn("last_status_code");
  });
}
