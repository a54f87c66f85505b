// Table statistics where nothing else keeps them: the embedded PGlite runs no autovacuum, and a Postgres may run with
// it off. Without them the planner picks among indexes blindly (createOrder's repeat check walked an account's orders
// one by one), so a table grown by a fifth since its last analysis, or never analysed, is analysed, as autovacuum
// would (docs/decisions.md, "Table statistics where the database keeps none").
import type { Knex } from "knex";
import { startBackgroundJob, type BackgroundJob } from "../background-job.js";
import { isPostgresUrl } from "./knex.js";
import { rawQuery } from "./raw.js";

/** How often the keeper looks (and how long after start it first does). */
export const statisticsEveryMs = 60_000;

/** Whether this database leaves its statistics to us: PGlite always, a Postgres running without autovacuum. */
export async function keepsNoStatistics(db: Knex, databaseUrl: string): Promise<boolean> {
  if (!isPostgresUrl(databaseUrl)) return true; // the embedded PGlite
  const result = await rawQuery<{ autovacuum: string }>(db, "select current_setting('autovacuum') as autovacuum", []);
  return result.rows[0]?.autovacuum !== "on";
}

/** This schema's tables whose size in pages grew by a fifth (and by 8 pages, 64 KiB) since their last analysis: the
 * size needs no statistics collector (PGlite's counts lag), and relpages is what the planner last learnt. */
const grownTablesSql = `
  select c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where c.relkind = 'r' and n.nspname = current_schema()
     and pg_relation_size(c.oid) / current_setting('block_size')::int > greatest(c.relpages * 1.2, c.relpages + 8)
   order by c.relname`;

/** Analyses the tables that grew since their last analysis; their names. */
export async function analyseGrownTables(db: Knex): Promise<string[]> {
  const grown = (await rawQuery<{ name: string }>(db, grownTablesSql, [])).rows.map((row) => row.name);
  for (const name of grown) await db.raw("analyze ??", [name]);
  return grown;
}

/** Runs analyseGrownTables every statisticsEveryMs when the database keeps no statistics of its own. */
export function createStatisticsKeeper(db: Knex, databaseUrl: string, everyMs = statisticsEveryMs) {
  let job: BackgroundJob | null = null;
  let stopped = false;
  return {
    /** Starts the job unless the database keeps its own statistics; a failed check goes to `onError` (unless the
     * keeper stopped meanwhile: the database may be closed by then). */
    start(onError: (error: unknown) => void): void {
      void keepsNoStatistics(db, databaseUrl).then(
        (ours) => {
          if (!ours || job || stopped) return;
          job = startBackgroundJob(async () => (await analyseGrownTables(db)).length, { intervalMs: everyMs }, onError);
        },
        (error: unknown) => {
          if (!stopped) onError(error);
        },
      );
    },
    async stop(): Promise<void> {
      stopped = true;
      await job?.stop();
      job = null;
    },
  };
}
