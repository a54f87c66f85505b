// `npm run db:migrate`: apply migrations to DATABASE_URL (default: embedded PGlite in ./.data) and exit.
import { loadConfig } from "../config.js";
import { createDb } from "./knex.js";
import { migrate } from "./migrate.js";

async function main(): Promise<void> {
  const db = createDb(loadConfig().databaseUrl);
  try {
    await migrate(db);
    const [{ count }] = await db("knex_migrations").count({ count: "*" });
    console.log(`database migrated: ${count} migrations applied`);
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(`dispatch db:migrate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
