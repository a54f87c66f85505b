// Every variable in the configuration table of docs/operating.md: the built server (what `npm start` and `dispatch-server`
// run) becomes ready with it set to a documented value, and the setting shows where that is cheap to see. Variables
// that do not interfere share a start, and the starts run at once. On each database configuration (a PGlite
// directory, Postgres, Postgres with Redis) an order is also booked into an arrival window and rescheduled to
// another: the row lock and seat moves of rescheduleOrder, as users run them.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { stringify } from "yaml";
import type { components } from "../../sdk/generated/openapi.js";
import { mintApiKey } from "../../server/services/access/keys.js";
import { generateNoteKey } from "../../server/services/audit/note.js";
import { freePort } from "../../mocks/prism.js";
import { anchorageContractor, fixtureContractor, quoteRequest } from "../fixtures/requests.js";
import { configTableFile, configTableRows } from "../../scripts/config-table.js";
import { builtBinArgs, root, serverArgs, spawnServer, type ServerProcess } from "../helpers/server-process.js";
import { adminToken, postgresDatabase } from "../helpers/server.js";

const v1 = "/api/dispatch/v1";

/** The variable names in the first column of the operating guide's configuration table. */
function documentedVariables(): string[] {
  return configTableRows(readFileSync(join(root, configTableFile), "utf8")).flatMap((line) =>
    [...(line.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]),
  );
}

interface Started {
  server: ServerProcess;
  base: string;
}

/** What the starts' settings point at, made before they run. */
interface Context {
  port: number;
  metricsPort: number;
  dataDir: string;
  sandboxKey: string;
  auditKey: string;
  fixtureKey: string;
  fixtures: string;
  postgresUrl: string;
  redisPostgresUrl: string;
  redisUrl: string;
}

interface Start {
  name: string;
  /** Skips the start when the database or Redis it needs is not configured for the tests. */
  needs?: "postgres" | "redis";
  /** Through the `dispatch-server` bin rather than `npm start`'s main.js. */
  bin?: boolean;
  env(c: Context): Record<string, string>;
  check(started: Started, c: Context): Promise<void>;
}

const json = (headers: Record<string, string> = {}) => ({ "content-type": "application/json", ...headers });

/** Minutes from offer to deadline of a new order of this urgency, read as its contractor (a demo-pool match). */
async function offerMinutes(base: string, key: string, urgency: string): Promise<number> {
  const admin = json({ authorization: `Bearer ${adminToken}` });
  const body = { trade: "plumbing", location: { state: "TX", city: "Austin" }, urgency, description: "Leak." };
  const ordered = await fetch(`${base}${v1}/order`, {
    method: "POST",
    headers: json({ "x-api-key": key }),
    body: JSON.stringify(body),
  });
  const { order } = (await ordered.json()) as { order: { id: string; assigned_contractor_ref: string } };
  const pool = await fetch(`${base}/api/admin/v1/contractors?trade=plumbing&state=TX&limit=200`, { headers: admin });
  const { items } = (await pool.json()) as { items: { id: string; ref: string }[] };
  const contractor = items.find((c) => c.ref === order.assigned_contractor_ref)!;
  const issued = await fetch(`${base}/api/admin/v1/contractors/${contractor.id}/keys`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ environment: "test" }),
  });
  const contractorKey = ((await issued.json()) as { key: string }).key;
  const offers = await fetch(`${base}${v1}/contractor/offers?status=offered`, {
    headers: { "x-api-key": contractorKey },
  });
  const offer = (
    (await offers.json()) as { items: { offered_at: string; respond_by: string; job: { order_id: string } }[] }
  ).items.find((o) => o.job.order_id === order.id)!;
  return (Date.parse(offer.respond_by) - Date.parse(offer.offered_at)) / 60_000;
}

async function issueKey(base: string, environment = "test"): Promise<{ id: string; key: string }> {
  const response = await fetch(`${base}/api/admin/v1/keys`, {
    method: "POST",
    headers: json({ authorization: `Bearer ${adminToken}` }),
    body: JSON.stringify({ account: "variables", environment }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as { id: string; key: string };
}

const quote = (base: string, key: string, body: unknown = quoteRequest) =>
  fetch(`${base}${v1}/quote`, { method: "POST", headers: json({ "x-api-key": key }), body: JSON.stringify(body) });

interface Window {
  start: string;
  end: string;
}

const post = (url: string, key: string, body: unknown) =>
  fetch(url, { method: "POST", headers: json({ "x-api-key": key }), body: JSON.stringify(body) });

/**
 * Books an order into the latest window of an Anchorage contractor that works round the clock (the demo pool has
 * nobody there, so the windows do not depend on the hour) and moves it to the window before (rescheduleOrder). A
 * live key: no sandbox step takes the order on site meanwhile.
 */
async function orderAndReschedule(base: string): Promise<void> {
  const always = [{ start: "00:00", end: "24:00" }];
  const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
  const contractor = {
    ...anchorageContractor("painting", "Round-the-clock Anchorage Painting"),
    working_hours: Object.fromEntries(days.map((day) => [day, always])),
  };
  const added = await fetch(`${base}/api/admin/v1/contractors`, {
    method: "POST",
    headers: json({ authorization: `Bearer ${adminToken}` }),
    body: JSON.stringify(contractor),
  });
  assert.equal(added.status, 201, await added.clone().text());
  const { key } = await issueKey(base, "live");
  const job = { trade: "painting", location: { state: "AK", city: "Anchorage" }, urgency: "urgent" };
  const quoted = (await (await quote(base, key, job)).json()) as { arrival_windows: Window[] };
  // the horizon's latest windows: a window closes 30 minutes before its end, the last ones stay open
  // as an order shows them: start and end, without the quote's confidence
  const [other, latest] = quoted.arrival_windows.slice(-2).map(({ start, end }) => ({ start, end }));
  const ordered = await post(`${base}${v1}/order`, key, { ...job, description: "Paint it.", arrival_window: latest });
  assert.equal(ordered.status, 201, await ordered.clone().text());
  const { order } = (await ordered.json()) as { order: { id: string; arrival_window: Window } };
  assert.deepEqual(order.arrival_window, latest);
  const moved = await post(`${base}${v1}/orders/${order.id}/reschedule`, key, { arrival_window: other });
  assert.equal(moved.status, 200, await moved.clone().text());
  assert.deepEqual(((await moved.json()) as { arrival_window: Window }).arrival_window, other);
}

/** Polls /readyz until 200; fails at once with the output when the process exits first. */
async function whenReady(server: ServerProcess, port: string | null): Promise<string> {
  // A new PGlite directory runs every migration on disk (about 15 s of CPU): minutes on a busy machine
  const limitMs = 240_000;
  const deadline = Date.now() + limitMs;
  const listening = /dispatch listening on http:\/\/[\d.]+:\d+/;
  const base = port
    ? `http://127.0.0.1:${port}`
    : (await server.waitFor(listening, limitMs)).replace("dispatch listening on ", "");
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`exited ${server.child.exitCode}: ${server.output()}`);
    if ((await fetch(`${base}/readyz`).catch(() => null))?.status === 200) return base;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${base}/readyz never answered 200: ${server.output()}`);
}

/** An instant far from any real run, so a start that ignored DISPATCH_TEST_NOW would show. */
const pinnedAt = "2031-01-06T09:00:00-05:00";

const starts: Start[] = [
  {
    name: "a PGlite directory with the listening, admin, URL, contact, webhook, probe, stream, limit and metrics settings",
    env: (c) => ({
      HOST: "127.0.0.1",
      PORT: String(c.port),
      DATABASE_URL: `pglite://${c.dataDir}`,
      DISPATCH_ADMIN_TOKEN: adminToken,
      PUBLIC_BASE_URL: "https://dispatch.example.test",
      MCP_ALLOWED_ORIGINS: "https://app.example.test,https://b.example.test",
      LOG_LEVEL: "warn",
      PROVISIONING_CONTACT: "provisioning@example.test",
      ESCALATION_CONTACT: "escalations@example.test",
      OAUTH_TOKEN_TTL_SECONDS: "600",
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_POLL_MS: "2000",
      WEBHOOK_BACKOFF_MS: "5000",
      WEBHOOK_MAX_ATTEMPTS: "3",
      WEBHOOK_TIMEOUT_MS: "5000",
      PROBE_ALLOW_PRIVATE: "true",
      SANDBOX_STEP_MS: "0",
      DISPATCHER_INTERVAL_MS: "5000",
      OFFER_DEADLINE_EMERGENCY_MINUTES: "3",
      OFFER_DEADLINE_URGENT_MINUTES: "7",
      OFFER_DEADLINE_ROUTINE_MINUTES: "45",
      OFFER_DEADLINE_SCHEDULED_MINUTES: "300",
      EVENT_STREAMS_PER_KEY: "2",
      EVENT_STREAM_MAX_SECONDS: "60",
      RATE_LIMIT_POINTS: "50",
      RATE_LIMIT_BURST: "10",
      EVALS_CACHE_MS: "0",
      A2A_TASK_BYTES_PER_CALLER: "1048576",
      A2A_TASK_BYTES: "33554432",
      SHUTDOWN_GRACE_MS: "3000",
      METRICS_PORT: String(c.metricsPort),
      METRICS_HOST: "127.0.0.1",
      HTTP_REQUEST_TIMEOUT_MS: "20000",
      TRUSTED_PROXIES: "10.0.0.0/8",
      AUDIT_LOG_ORIGIN: "dispatch.example.test/audit",
      AUDIT_SIGNING_KEY: c.auditKey,
      AUDIT_BATCH_MS: "500",
      BUILD_HASH: "variables-build",
      NODE_ENV: "production",
      AUTH_FAILURES_PER_CREDENTIAL: "10",
      AUTH_FAILURES_PER_ADDRESS: "100",
      MAX_REQUESTS_IN_FLIGHT: "64",
    }),
    async check({ server, base }, c) {
      assert.ok(existsSync(c.dataDir) && existsSync(`${c.dataDir}.lock`), "the data directory and its lock exist");
      assert.doesNotMatch(server.output(), /dispatch listening/, "LOG_LEVEL=warn leaves out info lines");
      const { key } = await issueKey(base);
      const quoted = await quote(base, key);
      assert.equal(quoted.status, 200);
      assert.match(quoted.headers.get("ratelimit-policy") ?? "", /q=60;w=60/);
      const card = await (await fetch(`${base}/.well-known/agent-card.json`)).text();
      assert.ok(card.includes("https://dispatch.example.test/api/a2a"), card.slice(0, 300));
      const mcp = (origin: string) =>
        fetch(`${base}/api/mcp`, {
          method: "POST",
          headers: json({ origin, accept: "application/json, text/event-stream" }),
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
      assert.equal((await mcp("https://elsewhere.example.test")).status, 403);
      const allowed = await mcp("https://b.example.test");
      assert.equal(allowed.status, 200); // answered by the MCP SDK, which the build loads on first use
      assert.match(await allowed.text(), /"name":"dispatch\.quote"/);
      const metrics = await fetch(`http://127.0.0.1:${c.metricsPort}/metrics`);
      assert.equal(metrics.status, 200);
      assert.match(await metrics.text(), /^# HELP /m);
      assert.equal(
        await offerMinutes(base, key, "urgent"),
        7,
        "OFFER_DEADLINE_URGENT_MINUTES sets the offer's deadline",
      );
      const capabilities = (await (await fetch(`${base}/api/capabilities`)).json()) as { build_hash: string };
      assert.equal(capabilities.build_hash, "variables-build");
      const checkpoint = await (await fetch(`${base}/api/attest/checkpoint`)).text();
      assert.match(checkpoint, /^dispatch\.example\.test\/audit\n/, "AUDIT_LOG_ORIGIN names the log");
      assert.ok(checkpoint.includes(`\u2014 ${c.auditKey.split("+")[2]} `), "AUDIT_SIGNING_KEY signs the checkpoint");
      await orderAndReschedule(base);
    },
  },
  {
    name: "in memory, quote and order disabled, no demo pool (the dispatch-server bin)",
    bin: true,
    env: () => ({
      DATABASE_URL: "pglite://memory",
      DISPATCH_DISABLED: "true",
      DISPATCH_SEED_DEMO: "false",
      DISPATCH_ADMIN_TOKEN: adminToken,
    }),
    async check({ base }) {
      const { key } = await issueKey(base);
      assert.equal((await quote(base, key)).status, 503);
      const contractors = await fetch(`${base}/api/admin/v1/contractors?limit=200`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      assert.deepEqual(((await contractors.json()) as { items: unknown[] }).items, []);
    },
  },
  {
    name: "sandbox mode with its key, its account, a fixtures file and a pinned business clock",
    env: (c) => ({
      DISPATCH_SANDBOX: "true",
      DISPATCH_SANDBOX_KEY: c.sandboxKey,
      DISPATCH_SANDBOX_ACCOUNT: "ci-sandbox",
      DISPATCH_FIXTURES: c.fixtures,
      DISPATCH_TEST_NOW: pinnedAt,
      DISPATCH_TEST_NOW_SINCE: String(Date.now()),
    }),
    async check({ base }, c) {
      const clock = await fetch(`${base}${v1}/sandbox/clock`, { headers: { "x-api-key": c.sandboxKey } });
      const { now } = (await clock.json()) as { now: string };
      const ahead = Date.parse(now) - Date.parse(pinnedAt);
      assert.ok(ahead >= 0 && ahead < 10 * 60_000, `DISPATCH_TEST_NOW sets business time: ${now}`);
      const reset = await fetch(`${base}${v1}/sandbox/reset`, {
        method: "POST",
        headers: { "x-api-key": c.sandboxKey },
      });
      assert.equal(reset.status, 200);
      assert.equal(((await reset.json()) as { account: string }).account, "ci-sandbox");
      const alaska = { trade: "roofing", location: { state: "AK", city: "Anchorage" }, urgency: "routine" };
      const quoted = await quote(base, c.fixtureKey, alaska);
      assert.equal(quoted.status, 200);
      const { availability } = (await quoted.json()) as { availability: { available: boolean } };
      assert.equal(availability.available, true, "the fixture's contractor serves Anchorage (the demo pool does not)");
    },
  },
  {
    name: "Postgres",
    needs: "postgres",
    env: (c) => ({
      DATABASE_URL: c.postgresUrl,
      DISPATCH_ADMIN_TOKEN: adminToken,
      DATABASE_STATEMENT_TIMEOUT_MS: "3000",
    }),
    async check({ base }, c) {
      await issueKey(base);
      const client = new pg.Client({ connectionString: c.postgresUrl });
      await client.connect();
      try {
        const { rows } = await client.query("select count(*)::int as n from api_keys where account = 'variables'");
        assert.equal(rows[0].n, 1, "the key is stored in the Postgres database");
      } finally {
        await client.end();
      }
      await orderAndReschedule(base);
    },
  },
  {
    name: "Postgres and Redis",
    needs: "redis",
    env: (c) => ({
      DATABASE_URL: c.redisPostgresUrl,
      REDIS_URL: c.redisUrl,
      REDIS_COMMAND_TIMEOUT_MS: "2000",
      DISPATCH_ADMIN_TOKEN: adminToken,
    }),
    async check({ server, base }, c) {
      const { id, key } = await issueKey(base);
      assert.equal((await quote(base, key)).status, 200);
      const redis = new Redis(c.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await redis.connect();
        assert.equal(await redis.exists(`rl:default:p:${id}`), 1, "the key's window is counted in Redis");
      } finally {
        redis.disconnect();
      }
      await orderAndReschedule(base);
      assert.doesNotMatch(server.output(), /unreachable/);
    },
  },
];

describe("built server: every documented variable", function () {
  this.timeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), "dispatch-variables-"));
  const postgres = postgresDatabase();
  const redisUrl = process.env.TEST_REDIS_URL;
  const databases: { url: string; drop(): Promise<void> }[] = [];
  const running = new Map<Start, { server: ServerProcess; ready: Promise<string> }>();
  let context: Context;

  const runnable = (start: Start) =>
    start.needs === "redis" ? Boolean(postgres && redisUrl) : start.needs === "postgres" ? Boolean(postgres) : true;

  async function createContext(): Promise<Context> {
    const [port, metricsPort] = await Promise.all([freePort(), freePort()]);
    const fixtureKey = mintApiKey("test");
    const fixtures = join(dir, "fixtures.yaml");
    const content = { contractors: [fixtureContractor], keys: [{ key: fixtureKey, account: "fixture-co" }] };
    writeFileSync(fixtures, stringify(content satisfies components["schemas"]["SandboxFixtures"]));
    const database = async () => {
      if (!postgres) return "postgres://unset";
      const created = await postgres.create();
      databases.push(created);
      return created.url;
    };
    const [postgresUrl, redisPostgresUrl] = await Promise.all([database(), database()]);
    return {
      port,
      metricsPort,
      dataDir: join(dir, "data"),
      sandboxKey: mintApiKey("test"),
      auditKey: generateNoteKey("variables.example.test"),
      fixtureKey,
      fixtures,
      postgresUrl,
      redisPostgresUrl,
      redisUrl: redisUrl ?? "redis://unset",
    };
  }

  before(async () => {
    const args = serverArgs(); // fails at once, naming the cause, when the build is stale
    context = await createContext();
    for (const start of starts.filter(runnable)) {
      const env = start.env(context);
      const server = spawnServer(env, process.execPath, start.bin ? builtBinArgs("start") : args, 300_000);
      const ready = whenReady(server, env.PORT ?? null);
      ready.catch(() => undefined); // each test reports its own start's failure; none is unhandled meanwhile
      running.set(start, { server, ready });
    }
  });

  after(async () => {
    const stopping = [...running.values()].map(async ({ server }) => {
      if (server.child.exitCode !== null) return;
      server.child.kill("SIGTERM");
      await server.exited;
    });
    await Promise.all(stopping);
    await Promise.all(databases.map((db) => db.drop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("sets every variable of the operating guide's table in some start", () => {
    const set = new Set(starts.flatMap((start) => Object.keys(start.env(context))));
    const documented = documentedVariables();
    assert.ok(documented.length >= 30, `table read: ${documented.join(", ")}`);
    assert.deepEqual(
      documented.filter((name) => !set.has(name)),
      [],
    );
  });

  for (const start of starts)
    it(`becomes ready with ${start.name}, and the settings take effect`, async function () {
      if (!runnable(start)) this.skip();
      const { server, ready } = running.get(start)!;
      await start.check({ server, base: await ready }, context);
      server.child.kill("SIGTERM");
      assert.equal(await server.exited, 0, server.output().slice(-2000));
    });
});
