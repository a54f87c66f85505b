// Runs the server's entry point as a child process, for boot errors, logs, locks and signals: by default the build
// users run (`npm start`'s server/dist/server/main.js), or the sources through tsx as `npm run dev` runs them.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "../../mocks/prism.js";
import { buildServer, staleness } from "../../server/build.js";
import {
  adminToken,
  issueTestKey,
  postgresDatabase,
  testServerEnv,
  type TestDatabase,
  type TestServer,
} from "./server.js";
import { until } from "./wait.js";

export const root = fileURLToPath(new URL("../../", import.meta.url));

/** "built": server/dist, what `npm start` and `dispatch-server` run; "sources": server/*.ts through tsx. */
export type ServerRuntime = "built" | "sources";

let checkedBuild = false;

/** Stops a test before it spawns an out-of-date build, which would test yesterday's server. */
function assertFreshBuild(): void {
  if (checkedBuild) return;
  const reason = staleness();
  if (reason)
    throw new Error(
      `the built server is out of date (${reason}): run \`npm run build:server\` first ` +
        "(spawned-server tests run the build users run; `npm test` builds before mocha)",
    );
  checkedBuild = true;
}

/** Builds the server when server/dist is out of date, and only then: `npm test` has just built it, and building it
 * again (25 s on the 2-core machine, for each file that did) would test the same files; a file run alone still builds. */
export async function ensureFreshBuild(): Promise<void> {
  if (staleness() !== null) await buildServer();
}

/** Node's arguments to run the built `dispatch-server` bin (server/package.json's) with `args`. */
export function builtBinArgs(...args: string[]): string[] {
  assertFreshBuild();
  return ["server/dist/server/bin/dispatch-server.js", ...args];
}

/** Node's arguments to run the server's entry point in `runtime`. */
export function serverArgs(runtime: ServerRuntime = "built"): string[] {
  if (runtime === "sources") return ["--import", "tsx", "server/main.ts"];
  assertFreshBuild();
  return ["server/dist/server/main.js"];
}

export interface ServerProcess {
  child: ChildProcess;
  /** Everything written so far, stdout and stderr together. */
  output(): string;
  /** Resolves once the output matches (or rejects when the process exits first, or after `limitMs`). */
  waitFor(pattern: RegExp, limitMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

/** Spawns `command args` from the repository root with a quiet, loopback-only environment plus `env`; the process is
 * killed after `lifetimeMs` whatever the test does. */
export function spawnServer(
  env: Record<string, string>,
  command = process.execPath,
  args?: string[],
  lifetimeMs = 120_000,
): ServerProcess {
  const child = spawn(command, args ?? serverArgs(), {
    cwd: root,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", DATABASE_URL: "pglite://memory", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      resolve(code);
    }),
  );
  const guard = setTimeout(() => child.kill("SIGKILL"), lifetimeMs);
  void exited.then(() => {
    clearTimeout(guard);
  });
  function waitFor(pattern: RegExp, limitMs = 60_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(text);
        if (!match) return;
        cleanup();
        resolve(match[0]);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${pattern} in: ${text}`));
      }, limitMs);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      void exited.then(() => {
        cleanup();
        if (pattern.test(text)) resolve(text);
        else reject(new Error(`exited: ${text}`));
      });
      check();
    });
  }
  return { child, output: () => text, waitFor, exited };
}

/** A silent server process on a free loopback port, resolved once `/readyz` answers 200 (at most `limitMs`). */
export async function startReadyServer(
  env: Record<string, string>,
  limitMs = 30_000,
  runtime: ServerRuntime = "built",
): Promise<{ url: string; child: ChildProcess }> {
  const args = serverArgs(runtime);
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "silent" },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < limitMs / 200; i++) {
    if (child.exitCode !== null) throw new Error(`server process exited ${child.exitCode} before it was ready`);
    if ((await fetch(`${url}/readyz`).catch(() => null))?.status === 200) return { url, child };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error("server process did not become ready");
}

/** A server started by startBuiltServer: a TestServer without `app`, with its process (for a fault to kill). */
export type BuiltServer = Omit<TestServer, "app"> & { child: ChildProcess };

/** startTestServer's counterpart on the build users run: the same settings, database and key helper, in a child
 * process (so no `app`: suites that reach into the services stay in-process). */
export async function startBuiltServer(
  db: TestDatabase | null = null,
  env: Record<string, string> = {},
): Promise<BuiltServer> {
  const args = serverArgs();
  const database = db ? await db.create() : { url: "pglite://memory", drop: async () => {} };
  const port = await freePort();
  const settings = { ...testServerEnv, DATABASE_URL: database.url, LOG_LEVEL: "warn", ...env, PORT: String(port) };
  const server = spawnServer(settings, process.execPath, args, 600_000);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000; // PGlite boots slowly on a busy machine
  while ((await fetch(`${url}/readyz`).catch(() => null))?.status !== 200) {
    if (server.child.exitCode !== null || Date.now() > deadline) {
      server.child.kill("SIGKILL");
      await database.drop();
      throw new Error(`the built server did not become ready: ${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    fetch,
    child: server.child,
    databaseUrl: database.url,
    issueKey: (input) => issueTestKey({ url, fetch }, input),
    async stop() {
      if (server.child.exitCode === null) server.child.kill("SIGTERM");
      await server.exited;
      await database.drop();
    },
  };
}

/** Two processes of the build on one new Postgres database and one Redis (TEST_DATABASE_URL and TEST_REDIS_URL; the
 * suite is skipped without them), started before the suite's tests (the first migrates and seeds before the second
 * starts) and ended by pid after them; read `a`, `b` (base URLs) and `databaseUrl` inside the tests. */
export function twoBuiltProcesses(env: Record<string, string> = {}): { a: string; b: string; databaseUrl: string } {
  const pair = { a: "", b: "", databaseUrl: "" };
  const procs: ChildProcess[] = [];
  let database: { url: string; drop(): Promise<void> } | undefined;
  before(async function () {
    const pgDb = postgresDatabase();
    const redisUrl = process.env.TEST_REDIS_URL;
    if (!pgDb || !redisUrl) this.skip();
    database = await pgDb.create();
    const settings = { DATABASE_URL: database.url, REDIS_URL: redisUrl, DISPATCH_ADMIN_TOKEN: adminToken, ...env };
    for (const side of ["a", "b"] as const) {
      const started = await startReadyServer(settings);
      procs.push(started.child);
      pair[side] = started.url;
    }
    pair.databaseUrl = database.url;
  });
  after(async () => {
    for (const child of procs) child.kill("SIGTERM");
    await until(() => procs.every((child) => child.exitCode !== null || child.signalCode !== null), {
      timeoutMs: 10_000,
    });
    await database?.drop();
  });
  return pair;
}
