// The path a test order's simulated contractors make it take (SandboxScenario); null for live orders and for test
// orders that name none (happy_path). A short string, not a Postgres enum: the contract's list is extensible and a
// new scenario must not need a migration; the service writes only values the contract's validator admitted.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("orders", (t) => {
    t.string("sandbox_scenario", 40).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable("orders", (t) => {
    t.dropColumn("sandbox_scenario");
  });
}
