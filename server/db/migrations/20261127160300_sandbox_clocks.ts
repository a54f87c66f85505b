// A sandbox account's test clock: one row per account whose test environment was frozen (advanceSandboxClock);
// an account without a row runs on the wall clock. The row holds the frozen instant itself, not an offset from the
// wall clock: a frozen clock must read the same on every instance however long a request or a sweep takes, and an
// instant in the shared database is what two instances agree on without agreeing on their wall clocks. Live data
// has no clock row: the key is the account alone and the row only ever answers for its test environment.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("sandbox_clocks", (t) => {
    t.string("account", 100).primary();
    t.timestamp("frozen_at", { useTz: true }).notNullable();
    t.timestamp("updated_at", { useTz: true }).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable("sandbox_clocks");
}
