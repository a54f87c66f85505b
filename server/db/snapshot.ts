// A migrated, empty PGlite data directory made by the build (dist/pglite-snapshot.tar.gz): `pglite://memory` starts
// from it rather than running initdb and every migration at each boot (seconds and several hundred MB each time).
// It holds the schema and what the build's `prepare` adds (the demo contractor pool), never keys or secrets: each
// server still generates its own.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { PGlite as PGliteType } from "@electric-sql/pglite";
import knex, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";
import { migrate } from "./migrate.js";

// knex-pglite requires PGlite's CommonJS build: using the same one saves loading its ES module build as well.
const { PGlite } = createRequire(import.meta.url)("@electric-sql/pglite") as typeof import("@electric-sql/pglite");
type PGlite = PGliteType;

export const snapshotFile = fileURLToPath(new URL("../../pglite-snapshot.tar.gz", import.meta.url));

/** An in-memory PGlite restored from the build's snapshot, or null when running from source (no snapshot). */
export function restoreSnapshot(): PGlite | null {
  if (!existsSync(snapshotFile)) return null;
  return new PGlite({ loadDataDir: new Blob([readFileSync(snapshotFile)]) });
}

/**
 * An embedded server never creates a database, so template0 and template1 (copied from by CREATE DATABASE only) are a
 * third of the snapshot that every in-memory start would restore and hold in memory for nothing.
 */
async function dropTemplateDatabases(pglite: PGlite): Promise<void> {
  await pglite.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')");
  await pglite.exec("DROP DATABASE template0");
  await pglite.exec("DROP DATABASE template1");
}

/** Migrates a fresh in-memory database, lets `prepare` add rows, and writes its data directory to `file`. */
export async function writeSnapshot(file = snapshotFile, prepare?: (db: Knex) => Promise<void>): Promise<void> {
  const pglite = new PGlite();
  const db = knex({ client: ClientPgLite, dialect: "postgres", connection: { pglite } } as Knex.Config);
  try {
    await migrate(db);
    await prepare?.(db);
    await dropTemplateDatabases(pglite);
    await pglite.query("CHECKPOINT");
    const dump = await pglite.dumpDataDir("gzip");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.destroy();
  }
}
