// Upgrade tests: a database migrated up to a named migration, and the smallest order row the schema accepts.
import type { Db } from "../../server/db/knex.js";
import { migrationSource } from "../../server/db/migrate.js";

/** Applies the migrations in name order up to and including `last`. */
export async function migrateThrough(db: Db, last: string): Promise<void> {
  for (const file of await migrationSource.getMigrations([])) {
    const name = migrationSource.getMigrationName(file);
    if (name > last) return;
    await db.migrate.up({ migrationSource, name });
  }
}

/** An order row written straight to the table; `fields` adds what the schema at hand has (key, environment). */
export const storedOrder = (id: string, fields: Record<string, unknown>) => ({
  id,
  account: "acme",
  request_hash: "h",
  status: "pending_dispatch",
  trade: "plumbing",
  state: "TX",
  location: JSON.stringify({ state: "TX" }),
  urgency: "routine",
  description: "d",
  response_status: 201,
  response_body: "{}",
  ...fields,
});
