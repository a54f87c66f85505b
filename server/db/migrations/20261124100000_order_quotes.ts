// Ordering a quote: what an order needs of its quote (owner, contractor, expiry; the price is already kept)
// and the order's quote_id.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("quotes", (t) => {
    t.string("account", 100); // null for OAuth-token quotes (no account): they cannot be ordered
    t.string("contractor_id", 40); // the best match; null when no contractor covered the job
    t.timestamp("expires_at", { useTz: true }); // null on quotes older than this migration
  });
  await db.schema.alterTable("orders", (t) => {
    t.string("quote_id", 40); // the quote the order was made from; checked by the service, not a foreign key
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable("orders", (t) => {
    t.dropColumn("quote_id");
  });
  await db.schema.alterTable("quotes", (t) => {
    t.dropColumn("expires_at");
    t.dropColumn("contractor_id");
    t.dropColumn("account");
  });
}
