// One advance of a sandbox account's test clock at a time: the row is the running advance's claim, taken by an
// insert that only replaces a claim nobody renewed for a while (an instance that stopped mid-walk), renewed at each
// stop of the walk and removed when it answers. A table of its own rather than columns of sandbox_clocks: a claim is
// no change of the clock, so taking and renewing one must not drop every instance's clock cache (that table's
// notices).
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable("sandbox_clock_advances", (t) => {
    t.string("account", 100).primary();
    t.string("claim", 40).notNullable();
    t.timestamp("started_at", { useTz: true }).notNullable();
    t.timestamp("renewed_at", { useTz: true }).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable("sandbox_clock_advances");
}
