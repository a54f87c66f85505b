// The leak-check plugin (.mocharc.json `require`) fails a file that leaves handles open and names them; a file
// that closes what it opens passes. Each case runs mocha with the repository's own config in a child process.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { withoutCoverage } from "../../helpers/coverage-env.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const mochaBin = fileURLToPath(new URL("../../../node_modules/mocha/bin/mocha.js", import.meta.url));

/** Runs mocha on one fixture file; resolves with its exit code and output (killed after 60 s whatever happens). */
function runMocha(
  fixture: string,
  options: { args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const args = [mochaBin, ...(options.args ?? []), `test/fixtures/leak-check/${fixture}`];
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...withoutCoverage(), LEAK_CHECK_STACKS: "1", ...options.env }, // the fixtures hold no code c8 reports
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(guard);
      resolve({ code, output });
    });
  });
}

/** Whether `pid` is gone, or dead and not yet reaped (a zombie, state Z: a container's PID 1 may reap late). */
function ended(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${String(pid)}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Polls `ended` until it holds or `ms` pass (a SIGKILL lands at once; the kernel's bookkeeping may trail it). */
async function endsWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!ended(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

describe("leak check", function () {
  this.timeout(90_000);

  it("fails the file that leaves a server and a timer open, naming both and where they were made", async () => {
    const { code, output } = await runMocha("leaky.fixture.ts");
    assert.notEqual(code, 0, output);
    assert.match(output, /leaky\.fixture\.ts left handles open/);
    assert.match(output, /1 × TCPServerWrap/);
    assert.match(output, /1 × Timeout/);
    assert.match(output, /server listening on \{"address":"127\.0\.0\.1"/);
    assert.match(output, /Timeout created[\s\S]*leaky\.fixture\.ts:9/);
    assert.match(output, /1 passed, 1 failed/);
  });

  for (const mode of [[], ["--parallel", "--jobs", "2"]])
    it(`kills the child process a failed file left running, and the run ends (${mode.length ? "parallel" : "serial"})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "leak-child-"));
      const pidFile = join(dir, "pid");
      try {
        const { code, output } = await runMocha("child.fixture.ts", {
          args: mode,
          env: { LEAK_CHILD_PID_FILE: pidFile },
        });
        assert.notEqual(code, 0, output);
        assert.match(output, /child process \d+/);
        const pid = Number(readFileSync(pidFile, "utf8"));
        assert.ok(await endsWithin(pid, 10_000), `child ${String(pid)} outlived the run`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

  it("passes the file that closes everything it opens, even a server still closing when its test ends", async () => {
    const { code, output } = await runMocha("tidy.fixture.ts");
    assert.equal(code, 0, output);
    assert.match(output, /1 passed, 0 failed/);
  });
});
