// Starts the real server for a test suite: embedded PGlite in memory, or a fresh Postgres database when
// TEST_DATABASE_URL is set (suites call `databases()` to run once per available database).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Server as HttpServer } from "node:http";
import type { Writable } from "node:stream";
import pg from "pg";
import { loadConfig, type Config } from "../../server/config.js";
import { createServer, type DispatchServer } from "../../server/index.js";
import { injectFetch } from "./inject-fetch.js";
import { ensureSourcesSnapshot } from "./pglite-snapshot.js";
import { migratedTemplate } from "./postgres-template.js";

export const adminToken = "test-admin-token-0123456789";

export interface TestDatabase {
  name: "pglite" | "postgres";
  /** Creates a database, empty or (`migrated`, for a server, where the copy spares it running the migrations)
   * holding today's migrations, and returns its URL plus a drop function. */
  create(options?: { migrated?: boolean }): Promise<{ url: string; drop(): Promise<void> }>;
}

const memory = "pglite://memory";

/** In memory for a server (restoring the sources' snapshot: pglite-snapshot.ts); an empty one, where the migration
 * suites start, in a directory of its own, since pglite://memory is not empty once that snapshot is made. */
const pglite: TestDatabase = {
  name: "pglite",
  async create({ migrated = false } = {}) {
    if (migrated) return { url: memory, drop: async () => {} };
    const dir = mkdtempSync(join(tmpdir(), "dispatch-pglite-"));
    const drop = async () => {
      for (const path of [dir, `${dir}.lock`]) rmSync(path, { recursive: true, force: true });
    };
    return { url: `pglite://${dir}`, drop };
  },
};

function postgres(baseUrl: string): TestDatabase {
  return {
    name: "postgres",
    async create({ migrated = false } = {}) {
      const name = `dispatch_t_${randomBytes(6).toString("hex")}`;
      const template = migrated ? ` TEMPLATE ${await migratedTemplate(baseUrl)}` : "";
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}${template}`);
      await admin.end();
      const url = new URL(baseUrl);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        async drop() {
          const c = new pg.Client({ connectionString: baseUrl });
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await c.end();
        },
      };
    },
  };
}

/** Real Postgres only (for tests that need two servers on one database), or none. */
export function postgresDatabase(): TestDatabase | null {
  const url = process.env.TEST_DATABASE_URL;
  return url ? postgres(url) : null;
}

/** PGlite always; real Postgres too when TEST_DATABASE_URL is set. */
export function databases(): TestDatabase[] {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) noteSkippedPostgres();
  return url ? [pglite, postgres(url)] : [pglite];
}

let skipNoted = false;
/** Says once per run why the Postgres variants of the suites do not run. */
function noteSkippedPostgres(): void {
  if (skipNoted) return;
  skipNoted = true;
  console.error("note: Postgres runs of the database suites are skipped: TEST_DATABASE_URL is unset (PGlite only).");
}

export interface TestServer {
  /** The server's origin; with `inject`, its unbound address (nothing listens there: send through `fetch`). */
  url: string;
  /** The global fetch, or with `inject` a fetch over server.inject; either way it takes URLs under `url`. */
  fetch: typeof fetch;
  app: DispatchServer;
  databaseUrl: string;
  /** Issues an API key through the admin API. */
  issueKey(input?: {
    account?: string;
    environment?: "test" | "live";
    scopes?: string[];
  }): Promise<{ id: string; key: string; account: string }>;
  stop(): Promise<void>;
}

/** What a request helper needs of a TestServer: where it is and how to reach it. */
export type ServerTarget = Pick<TestServer, "url" | "fetch">;

export interface TestServerOptions {
  /** Initialise without listening: requests go through server.inject via `fetch`. Not for suites that read
   * streams (SSE), or whose child processes, proxies or receivers need a real address; not for the MCP endpoint
   * either (its SDK transport reads the Node request's rawHeaders, which shot's request lacks). The sandbox walker,
   * which calls the server over HTTP, does not run. */
  inject?: boolean;
  /** Receives the server's pino lines (set LOG_LEVEL in `env`: the tests' default is silent). */
  logStream?: Writable;
}

/** Issues an API key through the admin API of a server started with the tests' admin token. */
export async function issueTestKey(
  { url, fetch: send }: ServerTarget,
  input: Parameters<TestServer["issueKey"]>[0] = {},
): Promise<{ id: string; key: string; account: string }> {
  const response = await send(`${url}/api/admin/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({
      account: input.account ?? "acme",
      environment: input.environment ?? "test",
      ...(input.scopes ? { scopes: input.scopes } : {}),
    }),
  });
  if (response.status !== 201) throw new Error(`issueKey: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; key: string; account: string };
}

/** The settings every test server starts with, before a suite's own. */
export const testServerEnv = {
  DISPATCH_ADMIN_TOKEN: adminToken,
  SANDBOX_STEP_MS: "0", // test-key orders stay put unless a suite asks the sandbox to move them
  EVALS_CACHE_MS: "0", // evals reflect each suite's orders at once; the cache has its own test
  SHUTDOWN_GRACE_MS: "5000", // a suite that leaves a request hanging waits 5 s at stop, not the 25 s default
};

/**
 * The test is the server's only client and it is stopping the server, so no further request comes on an idle
 * kept-alive connection: those close at once instead of holding the drain until the client's keep-alive timeout
 * (about 4 s per server). Requests under way still drain; the drain itself is tested on spawned servers.
 */
function closeIdleOnClosing(app: DispatchServer): void {
  // Hapi emits "closing" when stop() begins; its type definitions do not list the event.
  const events = app.server.events as unknown as { once(event: "closing", listener: () => void): void };
  events.once("closing", () => {
    // The drain turns the listener's own closeIdleConnections off (server/drain.ts); Node's is called here.
    HttpServer.prototype.closeIdleConnections.call(app.server.listener);
  });
}

export async function startTestServer(
  db: TestDatabase = pglite,
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  // A caller may point a second server at the first one's database (scale-out tests).
  const database = env.DATABASE_URL
    ? { url: env.DATABASE_URL, drop: async () => {} }
    : await db.create({ migrated: true });
  if (database.url === memory) await ensureSourcesSnapshot(); // restored instead of initdb and the migrations
  const config: Config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    DATABASE_URL: database.url,
    ...testServerEnv,
    ...env,
  });
  const app = await createServer(config, { logStream: options.logStream });
  if (options.inject) await app.server.initialize();
  else await app.server.start();
  const url = app.server.info.uri;
  const send = options.inject ? injectFetch(app.server) : fetch;
  return {
    url,
    fetch: send,
    app,
    databaseUrl: database.url,
    issueKey: (input) => issueTestKey({ url, fetch: send }, input),
    async stop() {
      if (!options.inject) closeIdleOnClosing(app);
      await app.stop();
      await database.drop();
    },
  };
}

/** Two servers on one Postgres database (a second instance beside the first), started before the suite's tests and
 * stopped after them; read `a` and `b` inside the tests. Only for suites that run when postgresDatabase() is set. */
export function twoInstancesOfOnePostgres(): { a: TestServer; b: TestServer } {
  const pair = {} as { a: TestServer; b: TestServer };
  before(async () => {
    pair.a = await startTestServer(postgresDatabase()!);
    pair.b = await startTestServer(postgresDatabase()!, { DATABASE_URL: pair.a.databaseUrl });
  });
  after(async () => {
    await pair.b?.stop();
    await pair.a?.stop();
  });
  return pair;
}
