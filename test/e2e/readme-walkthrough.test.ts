// The README's walkthrough works as written: the ```sh blocks between its markers run with bash, in the clone as a new
// user runs them, against a fresh server, and leave the clone as they found it (git status, file by file).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { loadConfig } from "../../server/config.js";
import { markedBlocks, userEnv } from "../helpers/readme-blocks.js";
import { root, spawnServer, type ServerProcess } from "../helpers/server-process.js";

const run = promisify(execFile);

describe("README walkthrough", function () {
  this.timeout(300_000);
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const blocks = markedBlocks(readme, "walkthrough");
  let dir: string;
  let server: ServerProcess | undefined;

  before(async () => {
    if (!existsSync(join(root, "cli/dist/dispatch.cjs"))) await run("npm", ["run", "build"], { cwd: root });
    dir = mkdtempSync(join(tmpdir(), "dispatch-walkthrough-"));
  });
  after(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it("covers key, index, estimate, quote, order from a JSON body, reading the order back and watching it", () => {
    const script = blocks.join("\n");
    for (const step of [
      "dispatch admin keys create",
      "export DISPATCH_API_KEY",
      "dispatch index",
      "dispatch estimate ",
    ])
      assert.ok(script.includes(step), `walkthrough lacks ${step}`);
    for (const step of ["dispatch quote ", "dispatch order --data -", "dispatch orders get", "dispatch orders watch"])
      assert.ok(script.includes(step), `walkthrough lacks ${step}`);
  });

  // The first terminal's commands (npm ci, npm run build, npm start) write into the clone as well: dependencies,
  // the builds, and npm start's default database with its lock. Ignored, they leave `git status` clean (prettier
  // reads .gitignore too). The lock is a directory (proper-lockfile's mkdir). The next test starts its server
  // elsewhere, so as not to touch a developer's database.
  it("leaves what the first terminal writes in the clone ignored by git: builds and npm start's database", async () => {
    const dataDir = loadConfig({}).databaseUrl.replace(/^pglite:\/\//, "");
    const written = ["node_modules/x", "cli/dist/x", "sdk/dist/x", "server/dist/x", `${dataDir}/x`, `${dataDir}.lock/`];
    const { stdout } = await run("git", ["check-ignore", "--no-index", ...written], { cwd: root }).catch(
      (error: unknown) => error as { stdout: string },
    );
    assert.deepEqual(stdout.trim().split("\n"), written);
  });

  it("runs with bash -euo pipefail and the order it prints is readable", async () => {
    const token = /export DISPATCH_ADMIN_TOKEN=(\S+)/.exec(blocks.join("\n"))?.[1];
    assert.ok(token, "the walkthrough exports the server's admin token");
    server = spawnServer({ DISPATCH_ADMIN_TOKEN: token, PORT: "0", DATABASE_URL: `pglite://${join(dir, "data")}` });
    const line = await server.waitFor(/dispatch listening[^\n]*/);
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(line)?.[1] ?? /"port":(\d+)/.exec(line)?.[1]);
    assert.ok(port > 0, `no port in: ${line}`);
    // Ignored files count too: a secret in an ignored key file would still sit in the clone. Every new file is listed
    // on its own (-uall; --ignored=matching names an ignored one unless its directory is ignored as a whole, as
    // node_modules/ or dist/ are, whose files prettier skips as well): an unchanged status is a clone the walkthrough
    // added nothing to and changed nothing in, so `prettier --check .`, which npm test runs before the suites, finds
    // the tree as it did. test/tmp/ is the scratch folder of the test files that run beside this one (npm test runs
    // three at once): it may appear meanwhile.
    const status = async () =>
      (await run("git", ["status", "--porcelain", "--ignored=matching", "--untracked-files=all"], { cwd: root })).stdout
        .split("\n")
        .filter((line) => !line.endsWith(" test/tmp/"))
        .join("\n");
    const before = await status();
    const script = `set -euo pipefail\n${blocks.join("\n")}\necho "key=$DISPATCH_API_KEY"`;
    const { stdout } = await run("bash", ["-c", script], { cwd: root, env: userEnv(dir, port), timeout: 120_000 });
    const orderId = /^(ord_\w+)$/m.exec(stdout)?.[1];
    assert.ok(orderId, `no order id printed in:\n${stdout}`);
    // the window and the ETA, as printed: start <= arrival < end
    const times = /^"?(\S+T\S+) (\S+T\S+) (\S+T\S+?)"?$/m
      .exec(stdout)
      ?.slice(1)
      .map((text) => Date.parse(text));
    assert.ok(times?.every(Number.isFinite), `no window and ETA printed in:\n${stdout}`);
    const [start, eta, end] = times!;
    assert.ok(start <= eta && eta < end, `ETA outside the window: ${stdout}`);
    // `orders watch` ends (exit 0, or bash -e fails the script) once the sandbox has walked the order to completed
    const lines = stdout.split("\n").flatMap((line) => {
      try {
        return [JSON.parse(line) as { data?: { order_id?: string; status?: string } } | null];
      } catch {
        return [];
      }
    });
    assert.ok(
      lines.some((event) => event?.data?.order_id === orderId && event.data.status === "completed"),
      `no completed event watched in:\n${stdout}`,
    );
    const key = /^key=(dispatch_test_\w+)$/m.exec(stdout)?.[1];
    assert.ok(key, `no test key exported in:\n${stdout}`);
    const response = await fetch(`http://127.0.0.1:${String(port)}/api/dispatch/v1/orders/${orderId}`, {
      headers: { "x-api-key": key },
    });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { id: string }).id, orderId);
    assert.equal(await status(), before, "the walkthrough changed the clone");
  });
});
