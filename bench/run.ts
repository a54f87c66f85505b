// `npm run bench`: req/s and latency of quote, estimate, index and order on the real server, each beside a bare
// Hapi route and the Prism mock answering the same call, plus the CLI's start time; writes BENCHMARKS.md.
import { execFileSync } from "node:child_process";
import { cpus, freemem, loadavg, release, tmpdir, totalmem, type as osType } from "node:os";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import Hapi from "@hapi/hapi";
import { startPrism } from "../mocks/prism.js";
import { estimateRequest, orderRequest, quoteRequest } from "../test/fixtures/requests.js";
import { databases, startTestServer, type TestDatabase } from "../test/helpers/server.js";
import { daySizesFromEnv, measureDispatchDay } from "./dispatch-day.js";
import { dispatchDayIntro, writeDispatchDaySection } from "./dispatch-day/report.js";
import { measureEvalsFlood } from "./evals-flood.js";
import { measureScaleOut } from "./scale-out.js";
import { targetLines, type Cell } from "./targets.js";
import { measureStart, writeStartSection } from "./start.js";
import { cliLines, measureCli, roundTripRatio, type CliFigures } from "./cli.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Bare Hapi and the server take turns, this many times per call: a slow spell of a shared machine then hits
 * both sides of a ratio, and the median of the per-round ratios ignores one bad round. */
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const warmUpSeconds = 1;

interface Call {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  keyed: boolean;
}
const { reference_id: _ignored, ...orderBody } = orderRequest;
const calls: Call[] = [
  { name: "quote", method: "POST", path: "/api/dispatch/v1/quote", body: quoteRequest, keyed: true },
  { name: "estimate", method: "POST", path: "/api/dispatch/v1/estimate", body: estimateRequest, keyed: false },
  { name: "index", method: "GET", path: "/api/dispatch/index", keyed: false },
  { name: "order", method: "POST", path: "/api/dispatch/v1/order", body: orderBody, keyed: true },
];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** One cell: a discarded warm-up second (JIT, connection pools), then `seconds` of measured load. */
async function measure(url: string, call: Call, headers: Record<string, string>): Promise<Figures> {
  const load = (duration: number) =>
    autocannon({
      url: url + call.path,
      method: call.method,
      connections,
      duration,
      headers: { "content-type": "application/json", ...headers },
      body: call.body ? JSON.stringify(call.body) : undefined,
    });
  await load(warmUpSeconds);
  const result = await load(seconds);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

/** A Hapi server with one route per call that answers a fixed body: the framework's floor. */
async function startBareHapi(bodies: Map<string, unknown>) {
  const server = Hapi.server({ host: "127.0.0.1", port: 0 });
  for (const call of calls)
    server.route({ method: call.method, path: call.path, handler: () => bodies.get(call.name) ?? {} });
  await server.start();
  return server;
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(n >= 100 ? 0 : 1) : "n/a");

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Medians of several runs of one cell (non-2xx summed: any is worth seeing). */
function medianOf(runs: Figures[]): Figures {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

interface Baselines {
  bare: Hapi.Server;
  prism: Awaited<ReturnType<typeof startPrism>>;
  key: string;
  /** Prism's figures per call, measured once (they are context, not a target). */
  mocks: Map<string, Figures>;
}

async function measureServer(
  db: TestDatabase,
  label: string,
  base: Baselines,
  out: { rows: string[]; cells: Cell[] },
  measured: Call[] = calls,
) {
  const server = await startTestServer(db, { RATE_LIMIT_POINTS: "1000000000", RATE_LIMIT_BURST: "0" });
  try {
    const { key } = await server.issueKey({ account: "bench" });
    for (const call of measured) {
      const bareRuns: Figures[] = [];
      const realRuns: Figures[] = [];
      for (let round = 0; round < rounds; round++) {
        bareRuns.push(await measure(base.bare.info.uri, call, call.keyed ? { "x-api-key": base.key } : {}));
        realRuns.push(await measure(server.url, call, call.keyed ? { "x-api-key": key } : {}));
      }
      const perRound = realRuns.map((r, i) => r.rps / bareRuns[i].rps);
      const ratio = median(perRound);
      const real = medianOf(realRuns);
      const floor = medianOf(bareRuns);
      const mock = base.mocks.get(call.name)!;
      const rounded = perRound.map((r) => r.toFixed(3)).join(" / ");
      console.log(
        `${call.name} (${label}): server ${fmt(real.rps)} req/s p50 ${real.p50} ms p99 ${real.p99} ms | bare ${fmt(floor.rps)} | prism ${fmt(mock.rps)} | ÷ bare per round ${rounded}`,
      );
      out.cells.push({ call: call.name, database: db.name, ratio, p99: real.p99 });
      out.rows.push(
        `| ${call.name} | ${label} | ${fmt(real.rps)} | ${real.p50} / ${real.p99} | ${real.non2xx} | ${fmt(floor.rps)} | ${floor.p50} / ${floor.p99} | ${fmt(mock.rps)} | ${mock.p50} / ${mock.p99} | ${ratio.toFixed(3)} (${rounded}) | ${(real.rps / mock.rps).toFixed(2)} |`,
      );
    }
  } finally {
    await server.stop();
  }
}

/** Bare Hapi (answering the bodies the real server produced) and the Prism mock; both run until the end. */
async function startBaselines(measured: Call[] = calls): Promise<Baselines> {
  const server = await startTestServer();
  const { key } = await server.issueKey({ account: "bench" });
  const samples = new Map<string, unknown>();
  for (const call of calls) {
    const r = await fetch(server.url + call.path, {
      method: call.method,
      headers: { "content-type": "application/json", "x-api-key": key },
      body: call.body ? JSON.stringify(call.body) : undefined,
    });
    samples.set(call.name, await r.json());
  }
  await server.stop();
  const bare = await startBareHapi(samples);
  const prism = await startPrism({ mode: "mock" });
  const mocks = new Map<string, Figures>();
  for (const call of measured)
    mocks.set(call.name, await measure(prism.url, call, call.keyed ? { "x-api-key": key } : {}));
  return { bare, prism, key, mocks };
}

/** The CLI beside `node -e 0` (bench/cli.ts), a quote round trip included, against a PGlite test server of its own. */
async function measureCliFigures(): Promise<CliFigures> {
  const server = await startTestServer(undefined, { RATE_LIMIT_POINTS: "1000000000", RATE_LIMIT_BURST: "0" });
  try {
    const { key } = await server.issueKey({ account: "bench-cli" });
    const figures = await measureCli({ url: server.url, key });
    console.log(cliLines(figures).join("\n"));
    return figures;
  } finally {
    await server.stop();
  }
}

async function main() {
  // `npm run bench -- --only cli`: just the CLI beside `node -e 0`, a quote round trip included (no report).
  if (process.argv.includes("--only") && process.argv.includes("cli")) {
    const figures = await measureCliFigures();
    console.log(
      targetLines([], figures.help.wallMs / figures.node.wallMs, NaN, roundTripRatio(figures))
        .slice(-3)
        .join("\n"),
    );
    return;
  }
  // `npm run bench -- --only evals-flood`: just estimate under an evals flood, with and without the cache.
  if (process.argv.includes("--only") && process.argv.includes("evals-flood")) {
    const { cached } = await measureEvalsFlood();
    console.log(targetLines([], NaN, cached.ratio).at(-1));
    return;
  }
  // `npm run bench -- --only start [--write]`: the built server's start against its floor (see start.ts).
  if (process.argv.includes("--only") && process.argv.includes("start")) {
    const lines = await measureStart();
    console.log(lines.join("\n"));
    if (process.argv.includes("--write")) writeStartSection(lines);
    return;
  }
  // `npm run bench -- --only order`: just the order call on each database beside bare Hapi and Prism, with its
  // target (no report): the check after a change to the order path.
  if (process.argv.includes("--only") && process.argv.includes("order")) {
    const measured = calls.filter((call) => call.name === "order");
    const base = await startBaselines(measured);
    const out = { rows: [] as string[], cells: [] as Cell[] };
    try {
      for (const db of databases())
        await measureServer(db, db.name === "pglite" ? "PGlite (embedded)" : "Postgres 15", base, out, measured);
    } finally {
      await base.bare.stop();
      await base.prism.stop();
    }
    console.log(
      targetLines(out.cells, NaN)
        .filter((line) => line.startsWith("- order"))
        .join("\n"),
    );
    return;
  }
  // `npm run bench -- --only dispatch-day [--write]`: a simulated day through the real services beside the
  // matcher before capacity and windows (see dispatch-day.ts).
  if (process.argv.includes("--only") && process.argv.includes("dispatch-day")) {
    const lines = await measureDispatchDay(daySizesFromEnv());
    if (process.argv.includes("--write")) writeDispatchDaySection(lines, dispatchDayIntro);
    return;
  }
  const base = await startBaselines();
  const out = { rows: [] as string[], cells: [] as Cell[] };
  try {
    for (const db of databases())
      await measureServer(db, db.name === "pglite" ? "PGlite (embedded)" : "Postgres 15", base, out);
  } finally {
    await base.bare.stop();
    await base.prism.stop();
  }
  const cli = await measureCliFigures();
  const scaleOut = (await measureScaleOut(seconds, connections)) ?? "Two-process run skipped: TEST_DATABASE_URL unset.";
  console.log(scaleOut);
  const flood = await measureEvalsFlood();
  const targets = targetLines(out.cells, cli.help.wallMs / cli.node.wallMs, flood.cached.ratio, roundTripRatio(cli));
  console.log(targets.join("\n"));
  writeReport(out.rows, cli, [scaleOut, "", flood.line, "", "Targets, from this run:", ...targets].join("\n"));
}

function writeReport(rows: string[], cli: CliFigures, scaleOut: string) {
  const commit = (() => {
    try {
      return execFileSync("git", ["rev-parse", "--short=12", "HEAD"]).toString().trim();
    } catch {
      return "unknown";
    }
  })();
  const cpu = cpus();
  const report = `# Benchmarks

The decisions these figures support, and why they were taken: [docs/decisions.md](docs/decisions.md).

Measured by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}, commit ${commit}.
Machine: ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(
      " / ",
    )}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM (${(freemem() / 2 ** 30).toFixed(1)} GiB free), ${osType()} ${release()}, Node ${process.version}.
Load: autocannon, ${connections} connections, ${seconds} s per run after a discarded ${warmUpSeconds} s warm-up (the same for the server, bare
Hapi and Prism), from the same machine (client and server share the cores). Each server cell is ${rounds} rounds in which
bare Hapi and the server take turns on the same call; a cell shows the medians of its rounds, and "server ÷ bare" is
the median of the per-round ratios (each round's ratio in brackets), so a slow spell of the machine falls on both
sides of a ratio. Prism is measured once per call.
Server: the reference server on embedded PGlite (in memory, one connection) and, when \`TEST_DATABASE_URL\` is set,
on the local Postgres 15 (pool of 10); logging silent, rate limit raised for the run (\`RATE_LIMIT_POINTS=1e9\`; the
limiter still runs on every request). Order requests carry no reference_id, so
each one creates an order. "Bare Hapi" is a Hapi route answering the same body with no validation, auth or
database; "Prism" is \`prism mock openapi.yaml\` answering the same call from the contract's examples.

| call | database | server req/s | server p50 / p99 ms | server non-2xx | bare Hapi req/s | bare p50 / p99 ms | Prism req/s | Prism p50 / p99 ms | server ÷ bare | server ÷ Prism |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

${cliLines(cli).join("\n")}

${scaleOut}

Statements per call (pinned by test/integration/attest.test.ts with a knex 'query' counter): a quote is 1 statement
(the quote row and its audit record in one INSERT … WITH, a named statement that takes the whole batch as two json
parameters) after at most 1 indexed read of its candidates' bookings (for its arrival windows; shared by the reads
waiting together, and a quote may reuse one at most 250 ms old); an order is 1 statement (order row, its events
(order.created and, when matched, order.assigned), its booking, audit records and, with a callback_url, a webhook
message per event as data-modifying CTEs: atomic without BEGIN/COMMIT) after the bookings read, plus 1 replay look-up
when a reference_id or Idempotency-Key is sent. Group commit: quotes (and orders) that arrive while a write is in
flight share the next statement, so under load a statement carries several calls.
API keys and the contractor pool are cached in memory and dropped on every instance by Postgres LISTEN/NOTIFY.
No request takes a lock for the audit log: records are plain INSERTs and a sequencer (one instance at a time,
pg_try_advisory_xact_lock) integrates them into the Merkle tree at most a second later.
Load: see the load average above; client, servers and databases share the machine's cores.
These are single-machine figures for comparing the layers with each other, not capacity claims.
`;
  // The committed report changes only when asked (`npm run bench -- --write`); otherwise the tree stays clean.
  const target = process.argv.includes("--write") ? "BENCHMARKS.md" : join(tmpdir(), "dispatch-BENCHMARKS.md");
  writeFileSync(target, report + keptSections());
  console.log(`wrote ${target}`);
}

/** What follows this line in BENCHMARKS.md was measured by the fault tests or an --only run: a full rewrite keeps it. */
const keptMarker = "<!-- measured by the fault tests and --only runs; kept by npm run bench -- --write -->";

function keptSections(): string {
  const current = existsSync("BENCHMARKS.md") ? readFileSync("BENCHMARKS.md", "utf8") : "";
  const at = current.indexOf(keptMarker);
  return at < 0 ? "" : `\n${current.slice(at)}`;
}

await main();
