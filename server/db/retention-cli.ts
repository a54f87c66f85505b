// `tsx server/db/retention-cli.ts`: purge audit records past the 7-year retention on DATABASE_URL and exit.
// Run it (daily, say) as a role granted EXECUTE on audit_purge_expired; the application role needs no DELETE.
import { loadConfig } from "../config.js";
import { createDb } from "./knex.js";
import { migrate } from "./migrate.js";
import { purgeExpiredAudit } from "./retention.js";

async function main(): Promise<void> {
  const db = createDb(loadConfig().databaseUrl);
  try {
    await migrate(db);
    console.log(`audit retention: ${await purgeExpiredAudit(db)} expired records purged`);
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(`dispatch db:purge-audit: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
