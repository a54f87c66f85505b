// Runs the migrations in server/db/migrations (files named <timestamp>_<name>.ts, applied in name order).
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Knex } from "knex";

const dir = fileURLToPath(new URL("./migrations/", import.meta.url));

interface MigrationModule {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: () =>
    Promise.resolve(
      readdirSync(dir)
        .filter((file) => /^\d+_.+\.(ts|js)$/.test(file) && !file.endsWith(".d.ts"))
        .sort(),
    ),
  getMigrationName: (file) => file.replace(/\.(ts|js)$/, ""),
  async getMigration(file) {
    return (await import(pathToFileURL(dir + file).href)) as MigrationModule;
  },
};

/**
 * Migration files renamed after databases recorded them (old name -> file name today). Knex refuses to run when a
 * recorded name has no file, so the record is renamed first; the file's content, and so the schema, is unchanged.
 */
export const renamedMigrations: Readonly<Record<string, string>> = {
  // It shared its timestamp with 20261123110000_audit_tree; the two ran in this order, which the new name keeps.
  "20261123110000_order_lifecycle": "20261123110100_order_lifecycle",
  // These three shared 20261127160000 with agent_confirmations; the new names keep the order the four ran in.
  "20261127160000_contractor_eta": "20261127160100_contractor_eta",
  "20261127160000_price_revisions": "20261127160200_price_revisions",
  "20261127160000_sandbox_clocks": "20261127160300_sandbox_clocks",
};

/** Brings a database's record of applied migrations up to today's file names. */
export async function renameRecordedMigrations(db: Knex): Promise<void> {
  if (!(await db.schema.hasTable("knex_migrations"))) return;
  for (const [recorded, today] of Object.entries(renamedMigrations))
    await db("knex_migrations").where({ name: recorded }).update({ name: today });
}

/**
 * True when the database records exactly today's migration files, so knex would run none. One query instead of
 * knex's table checks, lock and migration listing, which cost a database that is already current most of its start.
 */
async function isCurrent(db: Knex): Promise<boolean> {
  const files = (await migrationSource.getMigrations([])).map((file) => migrationSource.getMigrationName(file));
  let recorded: { name: string }[];
  try {
    recorded = await db("knex_migrations").select("name");
  } catch (error) {
    if ((error as { code?: string }).code === "42P01") return false; // undefined_table: a new database
    throw error;
  }
  const names = new Set(recorded.map((row) => row.name));
  return recorded.length === files.length && files.every((name) => names.has(name));
}

export async function migrate(db: Knex): Promise<void> {
  if (await isCurrent(db)) return;
  await renameRecordedMigrations(db);
  await db.migrate.latest({ migrationSource });
}
