// A flag value that misses a contract pattern is refused locally (exit 2) in words, not with the expression; a
// request of several shapes (a oneOf) is told what its own shape lacks, not another's.
import assert from "node:assert/strict";
import { runCli } from "./run-cli.js";

describe("cli pattern messages", function () {
  this.timeout(60_000);

  it("refuses `quote --zip 7870` saying a 5-digit ZIP or ZIP+4 is wanted", async () => {
    const run = await runCli(["quote", "--trade", "plumbing", "--state", "TX", "--zip", "7870"], {
      env: { DISPATCH_BASE_URL: "http://127.0.0.1:9", DISPATCH_API_KEY: "dispatch_test_x" },
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--zip must be a 5-digit ZIP or ZIP\+4/);
    assert.doesNotMatch(run.stderr, /\\d|\^/);
  });

  const env = { DISPATCH_BASE_URL: "http://127.0.0.1:9", DISPATCH_API_KEY: "dispatch_test_x" };

  it("refuses `jobs status --status completed` naming --final-cost-cents, the field a completion needs", async () => {
    const run = await runCli(["jobs", "status", "ord_x", "--status", "completed"], { env });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /missing required --final-cost-cents/);
  });

  it("refuses `jobs status --status on_site --final-cost-cents 1`: a final cost does not go with on_site", async () => {
    const run = await runCli(["jobs", "status", "ord_x", "--status", "on_site", "--final-cost-cents", "1"], { env });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--final-cost-cents does not go with the other fields given/);
  });
});
