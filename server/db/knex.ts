// Builds the Knex instance: embedded PGlite for pglite:// URLs, node-postgres for postgres:// URLs.
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import knex, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";
import { restoreSnapshot, snapshotFile } from "./snapshot.js";

/** int8 (COUNT, SUM) arrives as a string from node-postgres and as a number from PGlite: make both numbers. */
function parseBigNumbers(): void {
  // node-postgres loads only for a postgres:// URL (the same module knex then requires); PGlite servers skip it
  const pg = createRequire(import.meta.url)("pg") as typeof import("pg");
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value: string) => Number(value));
}

export type Db = Knex;

/** The URLs of an in-memory PGlite. */
const memoryLocations = new Set(["pglite://memory", "pglite://"]);

/** True when this URL opens the build's snapshot (an in-memory PGlite on a built server) rather than an empty database. */
export function restoresSnapshot(databaseUrl: string): boolean {
  return memoryLocations.has(databaseUrl) && existsSync(snapshotFile);
}

/** True for a URL served by node-postgres, where statement_timeout applies. */
export const isPostgresUrl = (databaseUrl: string): boolean => /^postgres(ql)?:\/\//.test(databaseUrl);

/**
 * `statementTimeoutMs` (0: none) bounds every statement on a Postgres connection, lock waits included, and the
 * wait for a pooled connection, so a held lock answers requests with an error instead of holding them. PGlite
 * ignores it: it is one in-process session, so no other session can hold a lock, and its statements run one at a
 * time; there the bound on requests in flight is what holds.
 */
export function createDb(databaseUrl: string, { statementTimeoutMs = 0 } = {}): Db {
  if (databaseUrl.startsWith("pglite://")) {
    if (memoryLocations.has(databaseUrl)) {
      const pglite = restoreSnapshot(); // a built server skips initdb and the migrations
      return knex({ client: ClientPgLite, dialect: "postgres", connection: pglite ? { pglite } : {} } as Knex.Config);
    }
    const dir = resolve(databaseUrl.slice("pglite://".length));
    mkdirSync(dir, { recursive: true });
    return knex({ client: ClientPgLite, dialect: "postgres", connection: { filename: dir } } as Knex.Config);
  }
  parseBigNumbers();
  // knex warns with a full stack on every failed connection attempt; the first line says all (boot names DATABASE_URL)
  const log = {
    warn: (message: string) => {
      console.warn(`knex: ${message.split("\n")[0]}`);
    },
  };
  const bounded = statementTimeoutMs > 0;
  return knex({
    client: "pg",
    connection: bounded ? { connectionString: databaseUrl, statement_timeout: statementTimeoutMs } : databaseUrl,
    pool: { min: 0, max: 10 },
    ...(bounded ? { acquireConnectionTimeout: statementTimeoutMs } : {}),
    log,
  });
}
