// `attest` and `orders watch` send through the SDK like every other command: the same -H headers and User-Agent, and
// the same exit code for a status (5xx is 10) or an unreachable server (3).
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExitCode } from "../../cli/errors.js";
import { runCli, startRecorder, type Recorder } from "./run-cli.js";

/** A loopback URL nothing listens on: a port the OS handed out and took back. */
async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return `http://127.0.0.1:${String(port)}`;
}

describe("cli commands that stream or verify offline", function () {
  this.timeout(60_000);
  let recorder: Recorder;
  let env: Record<string, string>;
  before(async () => {
    recorder = await startRecorder();
    env = { DISPATCH_CONFIG: join(mkdtempSync(join(tmpdir(), "dispatch-transport-")), "config.json") };
  });
  after(() => recorder.stop());

  describe("attest", () => {
    it("exits 10 when the server answers 5xx, sending -H and the CLI's User-Agent", async () => {
      recorder.answer = { status: 503, body: { type: "about:blank", title: "Unavailable", status: 503 } };
      const run = await runCli(["attest", "monitor", "--base-url", recorder.url, "-H", "X-Trace: t-1"], { env });
      assert.equal(run.code, ExitCode.serverError, run.stderr);
      const sent = recorder.requests.at(-1)!;
      assert.equal(sent.url, "/api/attest/key");
      assert.equal(sent.headers["x-trace"], "t-1");
      assert.match(String(sent.headers["user-agent"]), /^dispatch-cli\//);
    });

    it("exits 8 when the server answers 422 (a 4xx, not a 5xx)", async () => {
      recorder.answer = { status: 422, body: { type: "about:blank", title: "Invalid", status: 422 } };
      const run = await runCli(["attest", "pin", "--base-url", recorder.url], { env });
      assert.equal(run.code, ExitCode.clientError, run.stderr);
    });

    it("exits 3 when the connection is refused", async () => {
      const run = await runCli(["attest", "monitor", "--base-url", await refusedUrl()], { env });
      assert.equal(run.code, ExitCode.network, run.stderr);
      assert.match(run.stderr, /ECONNREFUSED 127\.0\.0\.1:\d+/);
    });
  });

  describe("orders watch", () => {
    it("exits 3 when the connection is refused", async () => {
      const run = await runCli(["orders", "watch", "ord_1", "--base-url", await refusedUrl()], { env });
      assert.equal(run.code, ExitCode.network, run.stderr);
      assert.match(run.stderr, /ECONNREFUSED 127\.0\.0\.1:\d+/);
    });

    it("exits 10 when the stream answers 5xx, sending -H", async () => {
      recorder.answer = { status: 500, body: { type: "about:blank", title: "Internal", status: 500 } };
      const run = await runCli(["orders", "watch", "ord_1", "--base-url", recorder.url, "-H", "X-Trace: t-2"], {
        env,
      });
      assert.equal(run.code, ExitCode.serverError, run.stderr);
      const sent = recorder.requests.at(-1)!;
      assert.equal(sent.url, "/api/dispatch/v1/orders/ord_1/events");
      assert.equal(sent.headers["x-trace"], "t-2");
      assert.equal(sent.headers.accept, "text/event-stream");
    });
  });
});
