// A Node 22 binary for the one test tool that needs it (MCP Inspector 2.x), so the toolchain itself runs on the
// machine's Node: the running Node when it is already 22 or later, else the npm-published `node-<os>-<arch>` build,
// installed once into a fixed directory under the temp dir and reused by later runs.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { withoutCoverage } from "./coverage-env.js";

export const node22Version = "22.23.3";
const run = promisify(execFile);
const packageName = `node-${process.platform}-${process.arch}`;
/** Where the binary is cached across runs (one directory per version and platform). */
export const node22Dir = join(tmpdir(), `dispatch-${packageName}-${node22Version}`);
const binaryIn = (dir: string) => join(dir, "node_modules", packageName, "bin", "node");

/** Installs into a fresh directory and renames it into place, so a concurrent or interrupted run leaves no half. */
async function install(): Promise<void> {
  const staging = mkdtempSync(`${node22Dir}-staging-`);
  try {
    await run(
      "npm",
      [
        "install",
        "--prefix",
        staging,
        `${packageName}@${node22Version}`,
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--no-package-lock",
      ],
      { cwd: staging, timeout: 300_000, maxBuffer: 16 * 2 ** 20, env: withoutCoverage() },
    );
    if (!existsSync(binaryIn(staging))) throw new Error(`npm installed ${packageName} without bin/node`);
    try {
      renameSync(staging, node22Dir);
    } catch (err) {
      if (!existsSync(binaryIn(node22Dir))) throw err; // else another run won the race: use its copy
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

let installing: Promise<void> | undefined;

/** Path of a Node ≥ 22 executable: this process's own, or the cached npm build (installed on first use). */
export async function node22(): Promise<string> {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  if (!existsSync(binaryIn(node22Dir))) await (installing ??= install());
  return binaryIn(node22Dir);
}
