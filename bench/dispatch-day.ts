// `npm run bench -- --only dispatch-day [--write]`: a simulated day through the real services (dispatch-day/new-run.ts)
// beside the matcher before capacity and windows (simulate.ts) and issue 42's rule, on one seeded world (world.ts);
// figures by figures.ts, `--write` to BENCHMARKS.md (report.ts). PGlite, and Postgres when TEST_DATABASE_URL is set;
// DISPATCH_DAY_ORDERS / _CONTRACTORS / _SEED change the day, DISPATCH_DAY_OPTIMUM_INPUT=<file> writes it for the
// offline optimum (dispatch-day/optimum-input.ts, optimum.py).
import { writeFile } from "node:fs/promises";
import { loadConfig } from "../server/config.js";
import { createChangeFeed } from "../server/db/change-feed.js";
import { createDb } from "../server/db/knex.js";
import { migrate } from "../server/db/migrate.js";
import { createStatisticsKeeper } from "../server/db/statistics.js";
import { createContractorService } from "../server/services/dispatch/contractors.js";
import { rankMatches } from "../server/services/dispatch/matching.js";
import { createDispatchDomain } from "../server/services/dispatch-domain.js";
import { createQuoteService } from "../server/services/dispatch/quotes.js";
import { databases, type TestDatabase } from "../test/helpers/server.js";
import { runFigures, type RunFigures } from "./dispatch-day/figures.js";
import { dayLines, machineLine } from "./dispatch-day/report.js";
import { runNewMatcher } from "./dispatch-day/new-run.js";
import { runOnlineRule } from "./dispatch-day/online-rule.js";
import { optimumInput } from "./dispatch-day/optimum-input.js";
import { runBaseline, type RunResult, type World } from "./dispatch-day/simulate.js";
import { dayOrders, everywhere, seedContractors, seededRandom, type Scope } from "./dispatch-day/world.js";

export interface DaySizes {
  seed: number;
  orders: number;
  contractors: number;
  /** The simulated weekday (YYYY-MM-DD; a Tuesday by default). */
  day: string;
  /** The states and trades of the day (every demo state and trade unless narrowed). */
  scope?: Scope;
}
export const defaultSizes: DaySizes = { seed: 20261201, orders: 2000, contractors: 300, day: "2026-12-01" };

export interface DayResult {
  sizes: DaySizes;
  database: TestDatabase["name"];
  world: World;
  fresh: RunResult;
  baseline: RunResult;
  /** The online rule issue 42 sets as the reference, on the drive alone and bound by the response as well. */
  online: { drive: RunResult; response: RunResult };
  figures: { fresh: RunFigures; baseline: RunFigures; online: { drive: RunFigures; response: RunFigures } };
}

/** Seeds a fresh database with the day's pool, then runs the new matcher there, and the baseline and the online
 * rule beside it. */
export async function simulateDay(database: TestDatabase, sizes: DaySizes = defaultSizes): Promise<DayResult> {
  const created = await database.create();
  const url = created.url;
  const db = createDb(url);
  const changes = createChangeFeed(url);
  const statistics = createStatisticsKeeper(db, url); // as the server runs it: where the database keeps none
  try {
    await migrate(db);
    await changes.start(() => undefined);
    statistics.start((error) => {
      console.error("dispatch-day: table statistics:", error);
    });
    const contractors = createContractorService(db, changes);
    const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: "silent", SANDBOX_STEP_MS: "0" });
    const dispatch = createDispatchDomain(db, contractors, config);
    const rand = seededRandom(sizes.seed);
    await contractors.removeAll(); // a snapshot's demo pool: this day has its own
    const scope = sizes.scope ?? everywhere;
    await contractors.createMany(seedContractors(rand, sizes.contractors, scope));
    const pool = (await contractors.list({ limit: sizes.contractors + 1 })).items;
    const world: World = { contractors: pool, orders: dayOrders(rand, sizes.orders, sizes.day, scope), nte: new Map() };
    for (const order of world.orders) {
      const best = rankMatches(await contractors.candidates(order.trade, order.location.state), order)[0];
      world.nte.set(order, order.nteFactor && best ? Math.round(best.costCents * order.nteFactor) : null);
    }
    const inputFile = process.env.DISPATCH_DAY_OPTIMUM_INPUT;
    if (inputFile) await writeFile(inputFile, JSON.stringify(await optimumInput(world)));
    const baseline = runBaseline(world);
    const fresh = await runNewMatcher(world, {
      db,
      contractors,
      orders: dispatch.orders,
      quotes: createQuoteService(db, contractors, config, dispatch.seats),
      seats: dispatch.seats,
      config,
    });
    const online = {
      drive: runOnlineRule(world, { responseBound: false }),
      response: runOnlineRule(world, { responseBound: true }),
    };
    const figures = {
      fresh: runFigures(fresh, pool),
      baseline: runFigures(baseline, pool),
      online: { drive: runFigures(online.drive, pool), response: runFigures(online.response, pool) },
    };
    return { sizes, database: database.name, world, fresh, baseline, online, figures };
  } finally {
    await statistics.stop();
    await changes.stop();
    await db.destroy();
    await created.drop();
  }
}

/** Both matchers on each database. */
export async function measureDispatchDay(sizes: DaySizes = defaultSizes): Promise<string[]> {
  const lines: string[] = [];
  const started = performance.now();
  for (const database of databases()) {
    const block = dayLines(await simulateDay(database, sizes));
    console.log(block.join("\n"));
    lines.push(...block, "");
  }
  const machine = machineLine((performance.now() - started) / 1000);
  console.log(machine);
  return [machine, "", ...lines];
}

/** `--scale N` (a whole number from 1 to 100): the day N times over, orders and contractors alike. */
export function scaleOf(argv: string[]): number {
  const at = argv.indexOf("--scale");
  if (at < 0) return 1;
  const n = Number(argv[at + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new Error(`--scale takes a whole number from 1 to 100, not ${argv[at + 1]}`);
  return n;
}

/** The default sizes, or DISPATCH_DAY_ORDERS / DISPATCH_DAY_CONTRACTORS / DISPATCH_DAY_SEED when set, times `--scale`. */
export function daySizesFromEnv(env = process.env, argv = process.argv): DaySizes {
  const number = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);
  const scale = scaleOf(argv);
  return {
    ...defaultSizes,
    seed: number("DISPATCH_DAY_SEED", defaultSizes.seed),
    orders: number("DISPATCH_DAY_ORDERS", defaultSizes.orders) * scale,
    contractors: number("DISPATCH_DAY_CONTRACTORS", defaultSizes.contractors) * scale,
  };
}
