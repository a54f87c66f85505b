// What a person sees on a first run: which fields a 422 refused, enum flags refused locally, replays and next steps
// named, Retry-After given, a refused callback_url explained, `listen` failures with their cause, `config unset`,
// a --query that matches nothing, and a list that is a table on a wide terminal.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "../../mocks/prism.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { bin, runCli, startBin, startRecorder, type Recorder } from "./run-cli.js";
import { until } from "../helpers/wait.js";

describe("cli first use", function () {
  this.timeout(90_000);
  let t: TestServer;
  let env: Record<string, string>;

  before(async () => {
    t = await startTestServer();
    const { key } = await t.issueKey({ account: "first-use" });
    env = { DISPATCH_BASE_URL: t.url, DISPATCH_API_KEY: key };
  });
  after(() => t?.stop());

  const order = (extra: string[] = []) =>
    runCli(["order", "--trade", "plumbing", "--state", "TX", "--city", "Austin", "--description", "Leak.", ...extra], {
      env: { ...env, DISPATCH_OUTPUT: "json" },
    });

  describe("a 422", () => {
    it("lists each field's pointer and message on stderr, not only under -o json", async () => {
      const body = JSON.stringify({ trade: "boats", location: { state: "TEX" } });
      const run = await runCli(["api", "POST", "/api/dispatch/v1/quote", "--data", body], { env });
      assert.equal(run.code, 8);
      assert.match(run.stderr, /2 fields are invalid/);
      assert.match(run.stderr, /^ {2}\/location\/state: .+$/m);
      assert.match(run.stderr, /^ {2}\/trade: .+$/m);
    });

    it("explains a refused loopback callback_url: dispatch listen, or WEBHOOK_ALLOW_PRIVATE on a test server", async () => {
      const args = [
        "--trade",
        "plumbing",
        "--state",
        "TX",
        "--description",
        "Leak.",
        "--callback-url",
        "http://127.0.0.1:9/h",
      ];
      const run = await runCli(["order", ...args], { env });
      assert.equal(run.code, 8);
      assert.match(run.stderr, /\/callback_url: /);
      assert.match(run.stderr, /dispatch listen --forward-to/);
      assert.match(run.stderr, /WEBHOOK_ALLOW_PRIVATE/);
      assert.match(run.stderr, /DISPATCH_SANDBOX=1 lets test keys call back to loopback/);
    });
  });

  describe("enum flags", () => {
    let recorder: Recorder;
    before(async () => {
      recorder = await startRecorder();
    });
    after(() => recorder?.stop());

    it("refuses `orders list --status done` locally with exit 2, naming the allowed values", async () => {
      const run = await runCli(["orders", "list", "--status", "dispatched,done", "--base-url", recorder.url]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /--status must be one of .*completed.* \(got "done"\)/);
      assert.equal(recorder.requests.length, 0);
    });

    it("gives the Retry-After of a 429 in the message", async () => {
      recorder.answer = {
        status: 429,
        body: { title: "Too Many Requests", status: 429 },
        headers: { "retry-after": "17" },
      };
      const run = await runCli(["index", "--base-url", recorder.url]);
      assert.equal(run.code, 9);
      assert.match(run.stderr, /Retry-After: 17 s/);
    });
  });

  describe("orders", () => {
    it("says on stderr when an order was a replay, and prints the same order", async () => {
      const first = await order(["--reference-id", "fu-replay"]);
      const again = await order(["--reference-id", "fu-replay"]);
      assert.equal(again.code, 0, again.stderr);
      assert.doesNotMatch(first.stderr, /replayed/);
      assert.match(again.stderr, /replayed.*Idempotent-Replayed: true/);
      assert.equal(JSON.parse(again.stdout).order.id, JSON.parse(first.stdout).order.id);
    });

    it("at a terminal, after `orders get X` suggests watching X, never `orders get X` again", async function () {
      if (!existsSync("/usr/bin/script")) this.skip();
      const id = JSON.parse((await order()).stdout).order.id as string;
      const exports = Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ");
      const command = `env ${exports} DISPATCH_CONFIG=/nonexistent ${process.execPath} ${bin} orders get ${id}`;
      const { stdout } = await promisify(execFile)("script", ["-qec", command, "/dev/null"]);
      assert.doesNotMatch(stdout, /next: dispatch orders get/);
      assert.match(stdout, new RegExp(`next: dispatch orders watch ${id}`));
    });

    it("prints no next: hint when stderr is not a terminal (a script's log stays diagnostics only)", async () => {
      const made = await order();
      assert.doesNotMatch(made.stderr, /next:/);
      const id = JSON.parse(made.stdout).order.id as string;
      const run = await runCli(["orders", "get", id], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stderr, /next:/);
    });

    it("prints `orders list` as a table on a wide terminal, the location as city, state", async function () {
      if (!existsSync("/usr/bin/script")) this.skip();
      await order();
      const exports = Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ");
      const command = `stty cols 200; env ${exports} DISPATCH_CONFIG=/nonexistent ${process.execPath} ${bin} orders list`;
      const { stdout } = await promisify(execFile)("script", ["-qec", command, "/dev/null"]);
      const lines = stdout.split(/\r?\n/);
      const header = lines.find((l) => l.startsWith("ID "));
      assert.ok(header, stdout);
      assert.match(header, /^ID +STATUS +TRADE +LOCATION/);
      assert.ok(
        lines.some((l) => /^ord_\w+ +pending_dispatch +plumbing +Austin, TX /.test(l)),
        stdout,
      );
      assert.doesNotMatch(stdout, /"zip"|^LOCATION\./m);
      assert.ok(
        lines.every((l) => l.length <= 200),
        stdout,
      );
    });
  });

  describe("--query", () => {
    it("matching nothing prints nothing, a note on stderr, and exits 0", async () => {
      const run = await runCli(["index", "--query", "verticals[].trade"], { env });
      assert.equal(run.code, 0);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, /--query "verticals\[\]\.trade" matched nothing/);
    });
  });

  describe("listen", () => {
    it("refuses a --forward-to that is not http or https with exit 2", async () => {
      const run = await runCli(
        ["listen", "--forward-to", "ftp://x", "--secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
        {
          env,
        },
      );
      assert.equal(run.code, 2);
      assert.match(run.stderr, /--forward-to must be an http or https URL/);
    });

    it("names the cause when the server cannot be reached (ECONNREFUSED host:port, not `fetch failed`)", async () => {
      const port = await freePort();
      const run = await runCli(
        ["listen", "--forward-to", "http://127.0.0.1:8080/", "--secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
        { env: { ...env, DISPATCH_BASE_URL: `http://127.0.0.1:${String(port)}` } },
      );
      assert.equal(run.code, 3);
      assert.match(run.stderr, new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${String(port)}`));
      assert.doesNotMatch(run.stderr, /fetch failed/);
    });

    it("reports a receiver that cannot be reached per event with the socket's cause, and keeps listening", async () => {
      const port = await freePort();
      const secret = ["--secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"];
      const forwardTo = `http://127.0.0.1:${String(port)}/hooks`;
      const listen = startBin(["listen", "--forward-to", forwardTo, "-o", "ndjson", ...secret], { env });
      try {
        await until(() => listen.stderr.includes("ready"));
        const ids = [await order(), await order()].map((r) => JSON.parse(r.stdout).order.id as string);
        const lines = () => listen.stdout.split("\n").filter((l) => ids.some((id) => l.includes(id)));
        await until(() => lines().length === 4); // each matched order: order.created, order.assigned
        for (const line of lines())
          assert.match(
            (JSON.parse(line) as { forwarded: string }).forwarded,
            new RegExp(`^failed \\(.*ECONNREFUSED 127\\.0\\.0\\.1:${String(port)}\\)$`),
          );
        assert.doesNotMatch(listen.stdout + listen.stderr, /fetch failed/);
        assert.equal(listen.child.exitCode, null, listen.stderr);
      } finally {
        await listen.stop();
      }
    });

    it("has a description in --help, as `orders watch` has", async () => {
      const listen = await runCli(["listen", "--help"]);
      assert.match(listen.stdout, /^Follow the account's live events/m);
      const watch = await runCli(["orders", "watch", "--help"]);
      assert.match(watch.stdout, /^Follow an order live/m);
    });
  });

  describe("config unset", () => {
    it("removes a profile value, after which the default applies", async () => {
      const config = { DISPATCH_CONFIG: join(mkdtempSync(join(tmpdir(), "dispatch-unset-")), "config.json") };
      assert.equal((await runCli(["config", "set", "base-url", "http://127.0.0.1:4010"], { env: config })).code, 0);
      const unset = await runCli(["config", "unset", "base-url"], { env: config });
      assert.equal(unset.code, 0, unset.stderr);
      assert.equal(JSON.parse(unset.stdout).removed, true);
      assert.equal((await runCli(["config", "get", "base-url"], { env: config })).stdout, "");
      const again = await runCli(["config", "unset", "base-url"], { env: config });
      assert.equal(JSON.parse(again.stdout).removed, false);
      assert.equal((await runCli(["config", "unset", "colour"], { env: config })).code, 2);
    });
  });
});
