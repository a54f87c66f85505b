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

export async function migrate(db: Knex): Promise<void> {
  await db.migrate.latest({ migrationSource });
}
