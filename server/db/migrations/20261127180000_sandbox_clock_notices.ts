// Sandbox clocks join the tables whose changes reach every instance's caches (the dispatch_cache notice, as for
// api_keys and contractors): requests of test keys read their account's clock from a cache
// (sandbox/clock-cache.ts), which an advance or a reset on any instance must drop everywhere.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.raw(
    "create trigger sandbox_clocks_cache_notify after insert or update or delete on sandbox_clocks for each statement execute function dispatch_cache_notify()",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw("drop trigger if exists sandbox_clocks_cache_notify on sandbox_clocks");
}
