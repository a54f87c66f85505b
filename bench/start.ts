// `npm run bench -- --only start [--write]`: how close the built server's start comes to its floor, a bare Hapi
// listener plus PGlite opening an existing data directory (same machine, same run, taking turns).
// Ready = spawn to the first line saying it listens; RSS = the process's resident set after 2 s idle.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hasCompileCache } from "../server/compile-cache.js";

const main = "server/dist/server/main.js";
const floorScript = `
import Hapi from "@hapi/hapi";
import { PGlite } from "@electric-sql/pglite";
const db = new PGlite(process.env.FLOOR_DIR);
await db.waitReady;
await db.query("select 1");
const server = Hapi.server({ host: "127.0.0.1", port: 0 });
await server.start();
console.log("dispatch listening on " + server.info.uri);
`;

interface Sample {
  readyMs: number;
  rssMb: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Spawns `args`, waits for "listening", idles 2 s, reads VmRSS, stops it with SIGTERM and waits for the exit. */
function sample(args: string[], env: Record<string, string>): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const guard = setTimeout(() => child.kill("SIGKILL"), 300_000);
  return new Promise((resolve, reject) => {
    let readyMs = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (readyMs || !output.includes("listening on")) return;
      readyMs = performance.now() - started;
      setTimeout(() => {
        const status = readFileSync(`/proc/${String(child.pid)}/status`, "utf8");
        const rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
        child.once("exit", () => {
          clearTimeout(guard);
          resolve({ readyMs, rssMb });
        });
        child.kill("SIGTERM");
      }, 2000);
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", () => {
      if (!readyMs) reject(new Error(`${args.join(" ")} exited before listening: ${output}`));
    });
  });
}

const noCache = { NODE_DISABLE_COMPILE_CACHE: "1" };

export async function measureStart(runs = 5): Promise<string[]> {
  if (!existsSync(main)) throw new Error(`${main} missing: npm run build:server first`);
  const dir = mkdtempSync(join(tmpdir(), "dispatch-bench-start-"));
  const floorDir = join(dir, "floor");
  const dataDir = join(dir, "server");
  const floorArgs = ["--input-type=module", "-e", floorScript];
  const server = { DISPATCH_ADMIN_TOKEN: "bench-admin-token-0123456789" };
  try {
    await sample(floorArgs, { FLOOR_DIR: floorDir }); // creates the floor's data directory
    await sample([main], { ...server, DATABASE_URL: `pglite://${dataDir}` }); // first start: initdb, migrate, seed
    const floor: Sample[] = [];
    const memory: Sample[] = [];
    const restart: Sample[] = [];
    const uncached = { memory: [] as Sample[], restart: [] as Sample[] };
    for (let i = 0; i < runs; i++) {
      floor.push(await sample(floorArgs, { FLOOR_DIR: floorDir }));
      memory.push(await sample([main], { ...server, DATABASE_URL: "pglite://memory" }));
      restart.push(await sample([main], { ...server, DATABASE_URL: `pglite://${dataDir}` }));
      if (!hasCompileCache) continue;
      uncached.memory.push(await sample([main], { ...server, ...noCache, DATABASE_URL: "pglite://memory" }));
      uncached.restart.push(await sample([main], { ...server, ...noCache, DATABASE_URL: `pglite://${dataDir}` }));
    }
    return [...report(floor, memory, restart), ...uncachedLines(floor, uncached)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same starts with the compile cache off, as on a first start or Node 20 (for comparison, not the targets). */
function uncachedLines(floor: Sample[], uncached: { memory: Sample[]; restart: Sample[] }): string[] {
  if (!uncached.memory.length)
    return ["", `Node ${process.versions.node} has no compile cache: the figures above are without one.`];
  const ms = (xs: Sample[]) => median(xs.map((x) => x.readyMs));
  return [
    "",
    `With the compile cache off (NODE_DISABLE_COMPILE_CACHE=1, as on a first start): in-memory ready ` +
      `${ms(uncached.memory).toFixed(0)} ms (${(ms(uncached.memory) / ms(floor)).toFixed(2)} × floor), restart ` +
      `${ms(uncached.restart).toFixed(0)} ms (${(ms(uncached.restart) / ms(floor)).toFixed(2)} × floor).`,
  ];
}

function report(floor: Sample[], memory: Sample[], restart: Sample[]): string[] {
  const ms = (xs: Sample[]) => median(xs.map((x) => x.readyMs));
  const mb = (xs: Sample[]) => median(xs.map((x) => x.rssMb));
  const verdict = (ratio: number, target: number) => (ratio <= target ? "met" : "**not met**");
  const memoryRatio = ms(memory) / ms(floor);
  const restartRatio = ms(restart) / ms(floor);
  const rssRatio = mb(memory) / mb(floor);
  return [
    `Node ${process.versions.node}${hasCompileCache ? " (the server's compile cache on, written by the first start)" : ""}. ` +
      `Medians of ${String(floor.length)} runs taking turns: floor (bare Hapi + PGlite opening a data dir) ready ` +
      `${ms(floor).toFixed(0)} ms, ${mb(floor).toFixed(0)} MB RSS; built server on pglite://memory ready ` +
      `${ms(memory).toFixed(0)} ms, ${mb(memory).toFixed(0)} MB idle RSS; restart on a data dir ready ` +
      `${ms(restart).toFixed(0)} ms.`,
    "",
    `- in-memory ready ÷ floor: ${memoryRatio.toFixed(2)} (target ≤ 2): ${verdict(memoryRatio, 2)}.`,
    `- data-dir restart ready ÷ floor: ${restartRatio.toFixed(2)} (target ≤ 1.5): ${verdict(restartRatio, 1.5)}.`,
    `- in-memory idle RSS ÷ floor RSS: ${rssRatio.toFixed(2)} (target ≤ 1.5): ${verdict(rssRatio, 1.5)}.`,
  ];
}

const heading = "## Server start (`npm run bench -- --only start`)";
const intro =
  "Each Node major the bench ran on keeps its own block (the server supports Node 22 and later; Node 20, the " +
  "machine's, is shown for comparison). `--write` replaces the block of the Node running it.";

/** The section's blocks by their `### Node N` heading, in the order they appear. */
function nodeBlocks(section: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const part of section.split(/^(?=### Node \d+)/m).slice(1)) blocks.set(part.split("\n")[0], part.trimEnd());
  return blocks;
}

/** Puts this Node major's start block into BENCHMARKS.md's start section, keeping the other majors' blocks. */
export function writeStartSection(
  lines: string[],
  file = "BENCHMARKS.md",
  nodeMajor = process.versions.node.split(".")[0],
): void {
  const current = readFileSync(file, "utf8");
  const at = current.indexOf(heading);
  const next = at < 0 ? -1 : current.indexOf("\n## ", at + heading.length);
  const before = at < 0 ? `${current.trimEnd()}\n\n` : current.slice(0, at);
  const after = next < 0 ? "" : current.slice(next + 1);
  const blocks = nodeBlocks(at < 0 ? "" : current.slice(at, next < 0 ? undefined : next));
  const title = `### Node ${nodeMajor}`;
  blocks.set(title, [title, "", ...lines].join("\n"));
  const ordered = [...blocks.entries()].sort(([a], [b]) => b.localeCompare(a, "en", { numeric: true }));
  const section = [heading, "", intro, "", ...ordered.map(([, block]) => `${block}\n`)].join("\n");
  writeFileSync(file, `${before}${section}${after ? `\n${after}` : ""}`);
}
