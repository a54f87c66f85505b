// Evals are public and unlimited, so a flood of them must not slow the other public calls: estimate p50 while 8
// connections request evals, ÷ estimate p50 with nothing else running (target ≤ 4), over a window holding a few
// thousand live orders. Measured with the evals cache on (the default) and off (every call computed), same run.
import autocannon from "autocannon";
import { estimateRequest, orderRequest } from "../test/fixtures/requests.js";
import { databases, startTestServer } from "../test/helpers/server.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const seededOrders = 3000;

const estimate = (url: string, duration: number) =>
  autocannon({
    url: `${url}/api/dispatch/v1/estimate`,
    method: "POST",
    connections: 4,
    duration,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(estimateRequest),
  });

const evalsFlood = (url: string, duration: number) =>
  autocannon({ url: `${url}/api/dispatch/analytics/evals?period=rolling_30d`, connections: 8, duration });

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

async function measureOne(cacheMs: number): Promise<FloodFigures> {
  const db = databases().at(-1)!; // Postgres when available, where order volume makes the window read costly
  const server = await startTestServer(db, { EVALS_CACHE_MS: String(cacheMs), RATE_LIMIT_POINTS: "1000000000" });
  try {
    await seed(server.url, (await server.issueKey({ account: "bench-evals", environment: "live" })).key);
    await estimate(server.url, 1); // warm-up
    const idle = await estimate(server.url, seconds);
    const [flooded, flood] = await Promise.all([estimate(server.url, seconds), evalsFlood(server.url, seconds)]);
    const idleP50 = Math.max(idle.latency.p50, 0.5);
    return {
      cacheMs,
      idleP50: idle.latency.p50,
      floodP50: flooded.latency.p50,
      ratio: flooded.latency.p50 / idleP50,
      evalsRps: flood.requests.average,
    };
  } finally {
    await server.stop();
  }
}

/** The flood with the cache as shipped (30 s) and without it (0: the cost every call used to have). */
export async function measureEvalsFlood(): Promise<{ cached: FloodFigures; uncached: FloodFigures; line: string }> {
  const cached = await measureOne(30_000);
  const uncached = await measureOne(0);
  const show = (f: FloodFigures) =>
    `estimate p50 ${f.idleP50} ms idle, ${f.floodP50} ms under the flood (× ${f.ratio.toFixed(2)}), evals ${f.evalsRps.toFixed(0)} req/s`;
  const line = [
    `Evals flood (8 connections on evals beside 4 on estimate, ${seededOrders} live orders in the window, ${databases().at(-1)!.name}):`,
    `- with the evals cache (EVALS_CACHE_MS=30000, as shipped): ${show(cached)}.`,
    `- without it (EVALS_CACHE_MS=0, every call computed): ${show(uncached)}.`,
  ].join("\n");
  console.log(line);
  return { cached, uncached, line };
}
