// Webhook secret rotation: secrets replaced by a rotation, each signing beside the current one until it expires.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("webhook_retired_secrets", (t) => {
    t.bigIncrements("id");
    t.string("account", 100).notNullable();
    t.string("secret", 100).notNullable();
    t.timestamp("retired_at", { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.index(["account", "expires_at"]);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists("webhook_retired_secrets");
}
