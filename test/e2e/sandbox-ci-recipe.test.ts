// docs/ci-and-sandbox.md, "A static mock": its Prism command works as written against the server's
// /openapi.yaml. (The recipe's shell steps run against the packed tarballs in test/packaging/server-pack.test.ts.)
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../mocks/prism.js";
import { withoutCoverage } from "../helpers/coverage-env.js";
import { sandboxCiGuide } from "../helpers/sandbox-ci.js";
import { root } from "../helpers/server-process.js";
import { startTestServer } from "../helpers/server.js";

describe("CI and sandbox guide: Prism against the published /openapi.yaml", function () {
  this.timeout(120_000);

  it("mocks every operation from the contract the server serves, keeping nothing", async () => {
    const guide = readFileSync(join(root, sandboxCiGuide), "utf8").replaceAll("\n", " ");
    const command = /`(curl [^`]*openapi\.yaml && npx --yes @stoplight\/prism-cli@5 mock [^`]*)`/.exec(guide)?.[1];
    assert.ok(command, "the guide names the download and the Prism command");
    const t = await startTestServer();
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), "dispatch-prism-readme-")); // where the downloaded contract lands
    const line = command
      .replace("-p 4010", `-p ${port}`)
      .replace("http://127.0.0.1:3000", t.url)
      .replaceAll("dispatch-openapi.yaml", join(dir, "dispatch-openapi.yaml"));
    // --offline: the clone's own @stoplight/prism-cli 5 answers; the test never reaches the registry
    const prism = spawn("sh", ["-c", line], {
      cwd: root,
      env: { ...withoutCoverage(), npm_config_offline: "true" }, // npx and Prism: nothing c8 reports
      detached: true, // its own process group: sh starts npx, npx starts prism, and all must stop
    });
    let output = "";
    prism.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    prism.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
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
      assert.equal(response?.status, 200, output);
      assert.deepEqual((await response.json()).removed, { orders: 3, quotes: 5, events: 11, webhook_deliveries: 4 });
      assert.deepEqual((await (await reset()).json()).removed.orders, 3); // the example again: no state
    } finally {
      if (prism.exitCode === null) process.kill(-prism.pid!, "SIGTERM");
      await t.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
