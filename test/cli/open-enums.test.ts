// Open enums (x-extensible-enum): the CLI prints a value this version does not know instead of failing.
import assert from "node:assert/strict";
import { runCli, startRecorder, type Recorder } from "./run-cli.js";

describe("cli: open enums", function () {
  this.timeout(30_000);
  let recorder: Recorder;
  before(async () => (recorder = await startRecorder()));
  after(async () => recorder?.stop());

  it("prints an order whose status is unknown to this CLI version, exit 0", async () => {
    recorder.answer = { status: 200, body: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1", status: "awaiting_parts" } };
    const run = await runCli(["orders", "get", "ord_01JD8XB3C5D7E9F1G3H5J7K9M1", "-o", "json"], {
      env: { DISPATCH_BASE_URL: recorder.url, DISPATCH_API_KEY: "dispatch_test_x" },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as { status: string }).status, "awaiting_parts");
  });
});
