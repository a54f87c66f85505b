// `dispatch` as users run it (the built bin) beside `node -e 0`, taking turns in one run: `--help` alone and, against
// a server, real commands, each beside the same request sent from this process (the server's own time). Wall time
// per run and CPU time from /proc: the CLI's cost, which its target is about. Spawned asynchronously, since the test
// server answering the CLI runs in this process (BENCHMARKS.md, "CLI round trip").
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { contractorInput, orderRequest, quoteRequest } from "../test/fixtures/requests.js";
import { adminToken } from "../test/helpers/server.js";

const cliBin = "cli/bin/dispatch.cjs";

/** One command's medians: wall ms, and CPU ms per run (NaN where /proc is missing). */
export interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** A real command against the server: its timing and its request's own time sent from this process (median ms). */
export interface RealCommand {
  name: string;
  timing: Timing;
  serverMs: number;
}

export interface CliFigures {
  node: Timing;
  help: Timing;
  /** With a server: the quote round trip, the dry run, and the quote's own time from this process. */
  quote?: Timing;
  dryRun?: Timing;
  serverMs?: number;
  /** With a server: quote, order and jobs list. */
  real?: RealCommand[];
  runs: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** CPU ms of the children this process has waited for (cutime + cstime), NaN off Linux. */
function childrenCpuMs(): number {
  if (!existsSync("/proc/self/stat")) return NaN;
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // clock ticks (USER_HZ, 100 on Linux)
}

interface Samples {
  wall: number[];
  cpu: number;
}

/** Runs `node args…` to its exit (asynchronously: the server may live in this process). */
async function spawnTimed(samples: Samples, args: string[], env?: NodeJS.ProcessEnv): Promise<void> {
  const cpuBefore = childrenCpuMs();
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  samples.wall.push(Number(process.hrtime.bigint() - start) / 1e6);
  samples.cpu += childrenCpuMs() - cpuBefore;
  if (code !== 0) throw new Error(`node ${args.join(" ")} exited ${String(code)}: ${stderr}`);
}

/** A request the CLI sends, sent from here over a new connection: ms to the whole answer. */
function serverTime(url: string, key: string, path: string, body?: unknown): Promise<number> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const headers = {
      "x-api-key": key,
      ...(text !== undefined && { "content-type": "application/json", "content-length": Buffer.byteLength(text) }),
    };
    const method = text === undefined ? "GET" : "POST";
    const outgoing = request(`${url}${path}`, { method, headers, agent: false }, (answer) => {
      answer.resume();
      answer.on("end", () => {
        if (answer.statusCode! >= 300) reject(new Error(`${method} ${path}: ${String(answer.statusCode)}`));
        resolve(Number(process.hrtime.bigint() - start) / 1e6);
      });
    });
    outgoing.on("error", reject);
    outgoing.end(text);
  });
}

/** A contractor and a live key of it, through the admin API of a server started with the tests' admin token. */
async function contractorKeyOf(url: string): Promise<string> {
  const admin = async (path: string, body: unknown) => {
    const answer = await fetch(`${url}/api/admin/v1/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (answer.status !== 201) throw new Error(`POST ${path}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as Record<string, unknown>;
  };
  const contractor = await admin("contractors", { ...contractorInput, name: "Bench CLI Plumbing" });
  return (await admin(`contractors/${String(contractor.id)}/keys`, { environment: "live" })).key as string;
}

const timing = (s: Samples): Timing => ({ wallMs: median(s.wall), cpuMs: s.cpu / s.wall.length });

/** Each command `runs` times, taking turns so a slow spell of the machine falls on every figure. */
export async function measureCli(server?: { url: string; key: string }, runs = 15): Promise<CliFigures> {
  if (!existsSync(cliBin)) throw new Error(`${cliBin}'s bundle is missing: npm run build:cli first`);
  const fresh = (): Samples => ({ wall: [], cpu: 0 });
  const [node, help, quote, dryRun, order, jobs] = [fresh(), fresh(), fresh(), fresh(), fresh(), fresh()];
  const served = { quote: [] as number[], order: [] as number[], jobs: [] as number[] };
  const q = quoteRequest.location;
  const quoteArgs = [
    cliBin,
    "quote",
    "--trade",
    quoteRequest.trade,
    "--state",
    q.state,
    "--zip",
    q.zip,
    "--city",
    q.city,
  ];
  const args = [...quoteArgs, "--urgency", quoteRequest.urgency, "--nte-cents", String(quoteRequest.nte_cents)];
  const full = [...args, "--description", quoteRequest.description, "-o", "json"];
  const { reference_id: _reference, ...orderBody } = orderRequest; // each run orders anew
  const orderArgs = [cliBin, "order", ...full.slice(2), "--address", orderRequest.location.address];
  const env = server && { ...process.env, DISPATCH_BASE_URL: server.url, DISPATCH_API_KEY: server.key };
  const contractorKey = server && (await contractorKeyOf(server.url));
  const contractorEnv = server && { ...env, DISPATCH_API_KEY: contractorKey };
  for (let i = 0; i < runs + 1; i++) {
    const warmUp = i === 0; // the first turn fills the compile cache and the server's pools; not counted
    const into = (s: Samples) => (warmUp ? fresh() : s);
    await spawnTimed(into(node), ["-e", "0"]);
    await spawnTimed(into(help), [cliBin, "--help"]);
    if (!server) continue;
    await spawnTimed(into(quote), full, env);
    await spawnTimed(into(dryRun), [...full, "--dry-run"], env);
    await spawnTimed(into(order), orderArgs, env);
    await spawnTimed(into(jobs), [cliBin, "jobs", "list"], contractorEnv);
    const times = {
      quote: await serverTime(server.url, server.key, "/api/dispatch/v1/quote", quoteRequest),
      order: await serverTime(server.url, server.key, "/api/dispatch/v1/order", orderBody),
      jobs: await serverTime(server.url, contractorKey!, "/api/dispatch/v1/contractor/jobs"),
    };
    if (!warmUp) for (const name of ["quote", "order", "jobs"] as const) served[name].push(times[name]);
  }
  const base = { node: timing(node), help: timing(help), runs };
  if (!server) return base;
  const real: RealCommand[] = [
    { name: "`dispatch quote … -o json`", timing: timing(quote), serverMs: median(served.quote) },
    { name: "`dispatch order … -o json`", timing: timing(order), serverMs: median(served.order) },
    { name: "`dispatch jobs list` (contractor key)", timing: timing(jobs), serverMs: median(served.jobs) },
  ];
  return { ...base, quote: timing(quote), dryRun: timing(dryRun), serverMs: median(served.quote), real };
}

/** A command's CPU time ÷ `node -e 0`'s (the target is 2.5; NaN where /proc is missing). */
export const cpuRatio = (f: CliFigures, t: Timing): number => t.cpuMs / f.node.cpuMs;

/** `dispatch quote` round trip less the request's own time, ÷ `node -e 0` (the target is 2.5). */
export const roundTripRatio = (f: CliFigures): number =>
  f.quote && f.serverMs !== undefined ? (f.quote.wallMs - f.serverMs) / f.node.wallMs : NaN;

const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : "n/a");

/** The figures as BENCHMARKS.md reports them. */
export function cliLines(f: CliFigures): string[] {
  const cpu = (t: Timing) => (Number.isFinite(t.cpuMs) ? `, CPU ${ms(t.cpuMs)}` : "");
  const line = (what: string, t: Timing) =>
    `- ${what}: ${ms(t.wallMs)}${cpu(t)} (${(t.wallMs / f.node.wallMs).toFixed(2)} × node -e 0)`;
  const lines = [
    `CLI (the built bin), medians of ${String(f.runs)} runs each, taking turns:`,
    `- \`node -e 0\`: ${ms(f.node.wallMs)}${cpu(f.node)}`,
    line("`dispatch --help`", f.help),
  ];
  if (!f.quote || !f.dryRun || f.serverMs === undefined || !f.real) return lines;
  const verdict = (ratio: number) => (ratio <= 2.5 ? "met" : "**not met**");
  const cpuLine = ({ name, timing: t, serverMs }: RealCommand) =>
    `- ${name}: CPU ${ms(t.cpuMs)} = **${cpuRatio(f, t).toFixed(2)} × \`node -e 0\`** (target ≤ 2.5: ${verdict(cpuRatio(f, t))}); wall ${ms(t.wallMs)}, of which the same request sent from the bench process takes ${ms(serverMs)}`;
  return [
    ...lines,
    line("`dispatch quote … --dry-run`", f.dryRun),
    "Real commands (round trips to the PGlite test server), CPU (user + system) ÷ `node -e 0`'s:",
    ...f.real.map(cpuLine),
    `- quote round trip less server time ÷ \`node -e 0\` (wall): ${roundTripRatio(f).toFixed(2)}`,
  ];
}
