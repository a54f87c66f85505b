// `npm run bench`: req/s and latency of quote, estimate, index and order on the real server, each beside a bare
// Hapi route and the Prism mock answering the same call, plus the CLI's start time; writes BENCHMARKS.md.
import { execFileSync, spawnSync } from "node:child_process";
import { cpus, freemem, loadavg, release, tmpdir, totalmem, type as osType } from "node:os";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import Hapi from "@hapi/hapi";
import { startPrism } from "../mocks/prism.js";
import { estimateRequest, orderRequest, quoteRequest } from "../test/fixtures/requests.js";
import { databases, startTestServer, type TestDatabase } from "../test/helpers/server.js";
import { measureScaleOut } from "./scale-out.js";
import { targetLines, type Cell } from "./targets.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
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

function medianMs(command: string, args: string[], runs = 15): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    spawnSync(command, args, { stdio: "ignore" });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(n >= 100 ? 0 : 1) : "n/a");

async function measureServer(
  db: TestDatabase,
  label: string,
  floors: Map<string, Figures>,
  mocks: Map<string, Figures>,
  out: { rows: string[]; cells: Cell[] },
) {
  const server = await startTestServer(db, { RATE_LIMIT_POINTS: "1000000000", RATE_LIMIT_BURST: "0" });
  try {
    const { key } = await server.issueKey({ account: "bench" });
    for (const call of calls) {
      const real = await measure(server.url, call, call.keyed ? { "x-api-key": key } : {});
      const floor = floors.get(call.name)!;
      const mock = mocks.get(call.name)!;
      console.log(
        `${call.name} (${label}): server ${fmt(real.rps)} req/s p50 ${real.p50} ms p99 ${real.p99} ms | bare ${fmt(floor.rps)} | prism ${fmt(mock.rps)}`,
      );
      out.cells.push({ call: call.name, database: db.name, ratio: real.rps / floor.rps, p99: real.p99 });
      out.rows.push(
        `| ${call.name} | ${label} | ${fmt(real.rps)} | ${real.p50} / ${real.p99} | ${real.non2xx} | ${fmt(floor.rps)} | ${floor.p50} / ${floor.p99} | ${fmt(mock.rps)} | ${mock.p50} / ${mock.p99} | ${(real.rps / floor.rps).toFixed(3)} | ${(real.rps / mock.rps).toFixed(2)} |`,
      );
    }
  } finally {
    await server.stop();
  }
}

/** The bare-Hapi floor and the Prism mock, measured once per call with bodies the real server produced. */
async function measureBaselines(floors: Map<string, Figures>, mocks: Map<string, Figures>) {
  const server = await startTestServer();
  const prism = await startPrism({ mode: "mock" });
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
  try {
    for (const call of calls) {
      const headers: Record<string, string> = call.keyed ? { "x-api-key": key } : {};
      floors.set(call.name, await measure(bare.info.uri, call, headers));
      mocks.set(call.name, await measure(prism.url, call, headers));
    }
  } finally {
    await bare.stop();
    await prism.stop();
  }
}

/** `dispatch --help` (the bundled bin) against `node -e 0`: medians of 15; the target is a ratio of at most 1.3. */
function measureCliStart(): { cli: number; node: number } {
  const cliBin = "cli/bin/dispatch.cjs";
  const node = medianMs(process.execPath, ["-e", "0"]);
  const cli = existsSync(cliBin) ? medianMs(process.execPath, [cliBin, "--help"]) : NaN;
  console.log(
    `CLI start: dispatch --help ${fmt(cli)} ms vs node -e 0 ${fmt(node)} ms (ratio ${(cli / node).toFixed(2)})`,
  );
  return { cli, node };
}

async function main() {
  // `npm run bench -- --only cli` measures just the CLI's start time (no servers, no report).
  if (process.argv.includes("--only") && process.argv.includes("cli")) {
    measureCliStart();
    return;
  }
  const floors = new Map<string, Figures>();
  const mocks = new Map<string, Figures>();
  await measureBaselines(floors, mocks);
  const out = { rows: [] as string[], cells: [] as Cell[] };
  for (const db of databases())
    await measureServer(db, db.name === "pglite" ? "PGlite (embedded)" : "Postgres 15", floors, mocks, out);
  const start = measureCliStart();
  const scaleOut = (await measureScaleOut(seconds, connections)) ?? "Two-process run skipped: TEST_DATABASE_URL unset.";
  console.log(scaleOut);
  const targets = targetLines(out.cells, start.cli / start.node);
  console.log(targets.join("\n"));
  writeReport(
    out.rows,
    start.cli,
    start.node,
    [scaleOut, "", "Targets (issues 14 and 16), from this run:", ...targets].join("\n"),
  );
}

function writeReport(rows: string[], cli: number, node: number, scaleOut: string) {
  const commit = (() => {
    try {
      return execFileSync("git", ["rev-parse", "--short=12", "HEAD"]).toString().trim();
    } catch {
      return "unknown";
    }
  })();
  const cpu = cpus();
  const report = `# Benchmarks

Measured by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}, commit ${commit}.
Machine: ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(
      " / ",
    )}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM (${(freemem() / 2 ** 30).toFixed(1)} GiB free), ${osType()} ${release()}, Node ${process.version}.
Load: autocannon, ${connections} connections, ${seconds} s per cell after a discarded ${warmUpSeconds} s warm-up (the same for the server, bare
Hapi and Prism), from the same machine (client and server share the cores).
Server: the reference server on embedded PGlite (in memory, one connection) and, when \`TEST_DATABASE_URL\` is set,
on the local Postgres 15 (pool of 10); logging silent, rate limit raised for the run (\`RATE_LIMIT_POINTS=1e9\`; the
limiter still runs on every request). Order requests carry no reference_id, so
each one creates an order. "Bare Hapi" is a Hapi route answering the same body with no validation, auth or
database; "Prism" is \`prism mock openapi.yaml\` answering the same call from the contract's examples.

| call | database | server req/s | server p50 / p99 ms | server non-2xx | bare Hapi req/s | bare p50 / p99 ms | Prism req/s | Prism p50 / p99 ms | server ÷ bare | server ÷ Prism |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

CLI start: \`dispatch --help\` median ${fmt(cli)} ms over 15 runs; \`node -e 0\` median ${fmt(node)} ms (ratio ${(cli / node).toFixed(2)}).

${scaleOut}

Statements per call (pinned by test/integration/attest.test.ts with a knex 'query' counter): a quote is 1 statement
(the quote row and its audit record in one INSERT … WITH); an order is 1 statement (order row, first event, audit
records and, with a callback_url, the webhook message as data-modifying CTEs: atomic without BEGIN/COMMIT) plus 1
replay look-up when a reference_id or Idempotency-Key is sent. Group commit: quotes (and orders) that arrive while a
write is in flight share the next statement, so under load a statement carries several calls.
API keys and the contractor pool are cached in memory and dropped on every instance by Postgres LISTEN/NOTIFY.
No request takes a lock for the audit log: records are plain INSERTs and a sequencer (one instance at a time,
pg_try_advisory_xact_lock) integrates them into the Merkle tree at most a second later.
Load: see the load average above; client, servers and databases share the machine's cores.
These are single-machine figures for comparing the layers with each other, not capacity claims.
`;
  // The committed report changes only when asked (`npm run bench -- --write`); otherwise the tree stays clean.
  const target = process.argv.includes("--write") ? "BENCHMARKS.md" : join(tmpdir(), "dispatch-BENCHMARKS.md");
  writeFileSync(target, report);
  console.log(`wrote ${target}`);
}

await main();
