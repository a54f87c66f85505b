// A flag value that misses a contract pattern is refused locally (exit 2) in words, not with the expression.
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
});
