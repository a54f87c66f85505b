// The leak-check plugin (.mocharc.json `require`) fails a file that leaves handles open and names them; a file
// that closes what it opens passes. Each case runs mocha with the repository's own config in a child process.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { withoutCoverage } from "../../helpers/coverage-env.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const mochaBin = fileURLToPath(new URL("../../../node_modules/mocha/bin/mocha.js", import.meta.url));

/** Runs mocha on one fixture file; resolves with its exit code and output (killed after 60 s whatever happens). */
function runMocha(fixture: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mochaBin, `test/fixtures/leak-check/${fixture}`], {
      cwd: root,
      env: { ...withoutCoverage(), LEAK_CHECK_STACKS: "1" }, // the fixtures hold no code c8 reports
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

  it("passes the file that closes everything it opens, even a server still closing when its test ends", async () => {
    const { code, output } = await runMocha("tidy.fixture.ts");
    assert.equal(code, 0, output);
    assert.match(output, /1 passed, 0 failed/);
  });
});
