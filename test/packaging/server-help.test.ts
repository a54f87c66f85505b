// Every example `dispatch-server --help` prints runs, in a fresh directory, against the built server.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ensureFreshBuild } from "../helpers/server-process.js";

const bin = fileURLToPath(new URL("../../server/dist/server/bin/dispatch-server.js", import.meta.url));
const run = promisify(execFile);

/** Runs `start` until it says it is listening, then stops it with SIGTERM; resolves with its exit code. */
function startAndStop(args: string[], cwd: string): Promise<number | null> {
  const env = { ...process.env, LOG_LEVEL: "info", HOST: "127.0.0.1" };
  const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const guard = setTimeout(() => child.kill("SIGKILL"), 240_000);
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("dispatch listening on")) child.kill("SIGTERM");
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(guard);
      if (output.includes("dispatch listening on")) resolve(code);
      else reject(new Error(`start exited before listening: ${output}`));
    });
  });
}

describe("dispatch-server --help", function () {
  this.timeout(300_000);
  let dir: string;
  before(async () => {
    await ensureFreshBuild();
    dir = mkdtempSync(join(tmpdir(), "dispatch-server-help-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints the version of @dispatch/server", async () => {
    assert.equal((await run(process.execPath, [bin, "--version"])).stdout.trim(), "1.0.0");
  });

  it("runs each of its examples", async () => {
    const help = (await run(process.execPath, [bin, "--help"])).stdout;
    const examples = [...help.matchAll(/^ {2}dispatch-server (.+)$/gm)].map((m) => m[1].split(" "));
    assert.deepEqual(
      examples.map((args) => args[0]),
      ["start", "migrate", "purge-audit"],
    );
    const [start, ...onDisk] = examples;
    // `start` (in memory) runs beside migrate and purge-audit, which share ./.data and so run in their order.
    const started = startAndStop(start, dir);
    started.catch(() => undefined); // awaited below, after the others
    for (const args of onDisk) {
      const { stdout } = await run(process.execPath, [bin, ...args], { cwd: dir });
      assert.match(
        stdout,
        args[0] === "migrate"
          ? /^database migrated: \d+ migrations applied$/m
          : /^audit retention: 0 expired records purged$/m,
      );
    }
    assert.equal(await started, 0);
  });
});
