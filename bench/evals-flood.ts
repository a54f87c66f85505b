// Evals are public and unlimited, so a flood of them must not slow the other public calls: estimate p50 while 8
// connections request evals, ÷ estimate p50 with nothing else running (target ≤ 4), over a window holding a few
// thousand live orders. Measured with the evals cache on (the default) and off (every call computed), same run.
// Server, flood and the estimate callers are three processes, so none measures another's client work.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import autocannon from "autocannon";
import { estimateRequest, orderRequest } from "../test/fixtures/requests.js";
import { adminToken, databases } from "../test/helpers/server.js";
import { startReadyServer } from "../test/helpers/server-process.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const seededOrders = 3000;
const autocannonBin = createRequire(import.meta.url).resolve("autocannon/autocannon.js");

/** Estimate latencies (ms, sub-millisecond precision) from `workers` sequential callers during `seconds`. */
async function estimateLatencies(url: string, seconds: number, workers = 4): Promise<number[]> {
  const until = performance.now() + seconds * 1000;
  const samples: number[] = [];
  const body = JSON.stringify(estimateRequest);
  const worker = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const response = await fetch(`${url}/api/dispatch/v1/estimate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      await response.arrayBuffer();
      samples.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return samples;
}

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** The flood runs in a process of its own (autocannon's CLI), so its client work shares no event loop. */
function evalsFlood(url: string, seconds: number): Promise<number> {
  const child = spawn(
    process.execPath,
    [autocannonBin, "-j", "-c", "8", "-d", String(seconds), `${url}/api/dispatch/analytics/evals?period=rolling_30d`],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) =>
    child.once("exit", () => { resolve((JSON.parse(out) as { requests: { average: number } }).requests.average); }),
  );
}

async function seed(url: string, key: string): Promise<void> {
  const { reference_id: _unused, ...body } = orderRequest;
  await autocannon({
    url: `${url}/api/dispatch/v1/order`,
    method: "POST",
    connections: 10,
    amount: seededOrders,
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(body),
  });
}

export interface FloodFigures {
  cacheMs: number;
  idleP50: number;
  floodP50: number;
  ratio: number;
  evalsRps: number;
}

async function liveKey(url: string): Promise<string> {
  const response = await fetch(`${url}/api/admin/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ account: "bench-evals", environment: "live" }),
  });
  return ((await response.json()) as { key: string }).key;
}

/** The server in a process of its own: the load generator must not share the server's event loop. */
async function measureOne(cacheMs: number): Promise<FloodFigures> {
  const database = await databases().at(-1)!.create(); // Postgres when available: a real window read
  const server = await startReadyServer({
    DATABASE_URL: database.url,
    DISPATCH_ADMIN_TOKEN: adminToken,
    EVALS_CACHE_MS: String(cacheMs),
    RATE_LIMIT_POINTS: "1000000000",
    SANDBOX_STEP_MS: "0",
  });
  try {
    await seed(server.url, await liveKey(server.url));
    await estimateLatencies(server.url, 1); // warm-up
    const idle = p50(await estimateLatencies(server.url, seconds));
    const flood = evalsFlood(server.url, seconds + 1);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the flood is under way
    const flooded = p50(await estimateLatencies(server.url, seconds));
    return { cacheMs, idleP50: idle, floodP50: flooded, ratio: flooded / idle, evalsRps: await flood };
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    await database.drop();
  }
}

/** The flood with the cache as shipped (30 s) and without it (0: the cost every call used to have). */
export async function measureEvalsFlood(): Promise<{ cached: FloodFigures; uncached: FloodFigures; line: string }> {
  const cached = await measureOne(30_000);
  const uncached = await measureOne(0);
  const show = (f: FloodFigures) =>
    `estimate p50 ${f.idleP50.toFixed(2)} ms idle, ${f.floodP50.toFixed(2)} ms under the flood (× ${f.ratio.toFixed(2)}), evals ${f.evalsRps.toFixed(0)} req/s`;
  const line = [
    `Evals flood (8 connections on evals beside 4 sequential estimate callers, ${seededOrders} live orders in the window, ${databases().at(-1)!.name}):`,
    `- with the evals cache (EVALS_CACHE_MS=30000, as shipped): ${show(cached)}.`,
    `- without it (EVALS_CACHE_MS=0, every call computed): ${show(uncached)}.`,
  ].join("\n");
  console.log(line);
  return { cached, uncached, line };
}
