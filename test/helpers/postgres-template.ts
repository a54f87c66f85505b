// A migrated Postgres database for the test databases to be copied from (CREATE DATABASE … TEMPLATE): each test
// server on Postgres otherwise ran every migration on an empty database, a second or so of Postgres's work per
// server. The template holds the migrations only (a server still seeds its demo pool at boot, as on an empty
// database) and is named by a hash of the migrations and the lockfile, so a changed migration makes a new one and a
// database is never copied from a stale schema. Made once per name: a process that finds it missing migrates a
// database of its own name and renames it into place; when another process got there first, it drops its own.
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createDb } from "../../server/db/knex.js";
import { migrate } from "../../server/db/migrate.js";

const dbDir = fileURLToPath(new URL("../../server/db/", import.meta.url));
const lockfile = fileURLToPath(new URL("../../package-lock.json", import.meta.url));

/** The migrations, the code that runs them and the lockfile (knex's and pg's versions). */
function migrationsHash(): string {
  const migrations = readdirSync(join(dbDir, "migrations"))
    .sort()
    .map((file) => join(dbDir, "migrations", file));
  const hash = createHash("sha256");
  for (const file of [...migrations, join(dbDir, "migrate.ts"), lockfile])
    hash.update(`${file}\n`).update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

async function withClient<T>(baseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const urlOf = (baseUrl: string, name: string) => {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function makeTemplate(baseUrl: string, name: string): Promise<void> {
  const exists = (c: pg.Client) => c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  if ((await withClient(baseUrl, exists)).rowCount) return;
  const building = `dispatch_tplb_${randomBytes(6).toString("hex")}`;
  await withClient(baseUrl, (c) => c.query(`CREATE DATABASE ${building}`));
  const db = createDb(urlOf(baseUrl, building));
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
  await withClient(baseUrl, async (c) => {
    try {
      await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      if ((error as { code?: string }).code !== "42P04") throw error; // duplicate_database: another process made it
      await c.query(`DROP DATABASE ${building}`);
    }
  });
}

const templates = new Map<string, Promise<string>>();

/** The name of the migrated template database on the server at `baseUrl` (made once per process and migrations). */
export function migratedTemplate(baseUrl: string): Promise<string> {
  let template = templates.get(baseUrl);
  if (!template) {
    const name = `dispatch_tpl_${migrationsHash()}`;
    template = makeTemplate(baseUrl, name).then(() => name);
    templates.set(baseUrl, template);
  }
  return template;
}
