// The README's "Test your integration in CI" steps work as written: the ```sh block between its sandbox-ci markers
// runs with bash in a consumer project whose `npm test` uses the SDK against the sandbox the steps start.
// Until the @dispatch/server bin lands, DISPATCH_SERVER is a launcher that runs this clone's server/main.ts with
// `--sandbox` as DISPATCH_SANDBOX=1; the packaging suite will run the same steps against the packed tarball.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "../../mocks/prism.js";
import { root } from "../helpers/server-process.js";
import { startTestServer } from "../helpers/server.js";

const run = promisify(execFile);

/** The ```sh blocks between `<!-- sandbox-ci:start -->` and `<!-- sandbox-ci:end -->`. */
export function sandboxCiSteps(markdown: string): string {
  const section = /<!-- sandbox-ci:start -->([\s\S]*?)<!-- sandbox-ci:end -->/.exec(markdown)?.[1];
  if (section === undefined) throw new Error("README.md has no sandbox-ci markers");
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "").join("\n");
}

/** A consumer's test: quote, order, then reset through the SDK, with the key and URL the steps exported. */
const consumerTest = `
import assert from "node:assert/strict";
import { createDispatchClient } from ${JSON.stringify(join(root, "sdk/index.ts"))};
const dispatch = createDispatchClient({ baseUrl: process.env.DISPATCH_BASE_URL, apiKey: process.env.DISPATCH_API_KEY });
const job = { trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent", description: "Leak." };
const quote = await dispatch.POST("/api/dispatch/v1/quote", { body: job });
assert.equal(quote.response.status, 200);
const order = await dispatch.POST("/api/dispatch/v1/order", { body: { ...job, reference_id: "ci-1" } });
assert.equal(order.response.status, 201);
const reset = await dispatch.POST("/api/dispatch/v1/sandbox/reset");
assert.equal(reset.response.status, 200);
assert.equal(reset.data.removed.orders, 1);
console.log("consumer tests passed");
`;

describe("README: test your integration in CI", function () {
  this.timeout(180_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "dispatch-consumer-"));
    writeFileSync(join(dir, "sandbox.test.ts"), consumerTest);
    const tsx = join(root, "node_modules/.bin/tsx");
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ private: true, type: "module", scripts: { test: `${tsx} sandbox.test.ts` } }),
    );
    const launcher = join(dir, "dispatch-server");
    writeFileSync(
      launcher,
      `#!/usr/bin/env bash\n[ "$1" = --sandbox ] && export DISPATCH_SANDBOX=1\ncd ${JSON.stringify(root)} && exec node --import tsx server/main.ts\n`,
    );
    chmodSync(launcher, 0o755);
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts the sandbox, waits for /readyz, runs the consumer's SDK tests with the printed key, and stops it", async () => {
    const steps = sandboxCiSteps(readFileSync(join(root, "README.md"), "utf8"));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("DISPATCH_")));
    const env = { ...inherited, PORT: String(await freePort()), DISPATCH_SERVER: join(dir, "dispatch-server") };
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", steps], { cwd: dir, env, timeout: 150_000 });
    assert.match(stdout, /"status":"ok"/);
    assert.match(stdout, /consumer tests passed/);
    const log = readFileSync(join(dir, "dispatch-sandbox.log"), "utf8");
    assert.equal(log.match(/dispatch: sandbox key/g)?.length, 1);
    const pid = Number(/"pid":(\d+)/.exec(log)?.[1]);
    await new Promise((resolve) => setTimeout(resolve, 2000)); // the trap's SIGTERM: the server stops cleanly
    assert.throws(() => process.kill(pid, 0), /ESRCH/, "the sandbox server is stopped");
  });
});

describe("README: Prism against the published /openapi.yaml", function () {
  this.timeout(120_000);

  it("mocks every operation from the contract the server serves, keeping nothing", async () => {
    const readme = readFileSync(join(root, "README.md"), "utf8").replaceAll("\n", " ");
    const command = /`(npx --yes @stoplight\/prism-cli@5 mock [^`]*\/openapi\.yaml)`/.exec(readme)?.[1];
    assert.ok(command, "README names the Prism command");
    const t = await startTestServer();
    const port = await freePort();
    const args = command.replace("-p 4010", `-p ${port}`).replace("http://127.0.0.1:3000", t.url).split(/\s+/);
    // --offline: the clone's own @stoplight/prism-cli 5 answers; the test never reaches the registry
    const prism = spawn(args[0], args.slice(1), {
      cwd: root,
      env: { ...process.env, npm_config_offline: "true" },
      detached: true, // its own process group: npx starts prism as a child, and both must stop
    });
    try {
      const reset = async () =>
        fetch(`http://127.0.0.1:${port}/api/dispatch/v1/sandbox/reset`, {
          method: "POST",
          headers: { "x-api-key": "dispatch_test_anything" },
        });
      let response: Response | null = null;
      for (let i = 0; i < 120 && !response; i++)
        response = await reset().catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 500)); // not listening yet
          return null;
        });
      assert.equal(response?.status, 200);
      assert.deepEqual((await response.json()).removed, { orders: 3, quotes: 5, events: 11, webhook_deliveries: 4 });
      assert.deepEqual((await (await reset()).json()).removed.orders, 3); // the example again: no state
    } finally {
      process.kill(-prism.pid!, "SIGTERM");
      await t.stop();
    }
  });
});
