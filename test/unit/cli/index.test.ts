// runCli(): the CLI in-process, on the streams, environment and stdin it is given instead of the process's.
import assert from "node:assert/strict";
import { runCli } from "../../../cli/index.js";

const env = { DISPATCH_CONFIG: "/nonexistent/dispatch-config.json" };

describe("cli index", () => {
  describe("runCli()", () => {
    it("returns a failing command's exit code and output, leaving the process's exit code alone", async () => {
      const run = await runCli(["quote", "--trade", "gardening", "--state", "TX"], { env });
      assert.equal(run.code, 2);
      assert.match(run.stderr, /^dispatch: --trade must be one of plumbing/);
      assert.equal(run.stdout, "");
      assert.equal(process.exitCode, undefined);
    });

    it("keeps the output of runs in flight at the same time apart", async () => {
      const [version, refused] = await Promise.all([
        runCli(["--version"], { env }),
        runCli(["quote", "--state", "TX"], { env }),
      ]);
      assert.deepEqual([version.code, version.stderr], [0, ""]);
      assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
      assert.deepEqual([refused.code, refused.stdout], [2, ""]);
      assert.match(refused.stderr, /missing required --trade/);
    });

    it("wraps help to the columns of an injected terminal, else to commander's 80", async () => {
      const line = "--api-key <key>         provisioned API key, sent as x-api-key (env DISPATCH_API_KEY)";
      const wide = await runCli(["quote", "--help"], { env, tty: { columns: 120 } });
      const piped = await runCli(["quote", "--help"], { env });
      assert.ok(wide.stdout.includes(line), wide.stdout);
      assert.ok(!piped.stdout.includes(line), piped.stdout);
    });

    it("reads --data - from the given stdin", async () => {
      const run = await runCli(["quote", "--data", "-", "--dry-run"], {
        env,
        stdin: '{"trade":"hvac","location":{"state":"NV"}}',
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /--data-raw '\{"trade":"hvac","location":\{"state":"NV"\}\}'/);
    });
  });
});
