// `dispatch` for scripts: --query, -o ndjson, --paginate, --dry-run and `api`, against the real server, Prism and a
// recording server.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import { adminToken, startTestServer, type TestServer } from "../helpers/server.js";
import { oneLine, runCli, startRecorder, type Recorder } from "./run-cli.js";

const ndjsonLines = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);

describe("cli scripting", function () {
  this.timeout(180_000);

  describe("against the real server", () => {
    let t: TestServer;
    const admin = { DISPATCH_ADMIN_TOKEN: adminToken };
    const account = "acme-scripting";
    const ids: string[] = [];
    const cli = (args: string[], env: Record<string, string> = admin) =>
      runCli([...args, "--base-url", t.url], { env });

    before(async () => {
      t = await startTestServer();
      for (let i = 0; i < 3; i++) ids.push((await t.issueKey({ account })).id);
    });
    after(async () => t?.stop());

    it("--paginate follows next_cursor and prints every page's items as one JSON array", async () => {
      const run = await cli(["admin", "keys", "list", "--account", account, "--limit", "1", "--paginate"]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual((JSON.parse(run.stdout) as { id: string }[]).map((k) => k.id).sort(), [...ids].sort());
    });

    it("--paginate -o ndjson prints one item per line", async () => {
      const run = await cli([
        "admin",
        "keys",
        "list",
        "--account",
        account,
        "--limit",
        "2",
        "--paginate",
        "-o",
        "ndjson",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const lines = ndjsonLines(run.stdout) as { id: string; account: string }[];
      assert.equal(lines.length, 3);
      assert.ok(lines.every((k) => k.account === account));
    });

    it("--query filters the result with JMESPath", async () => {
      const run = await cli(["admin", "keys", "list", "--account", account, "--query", "items[].account"]);
      assert.deepEqual(JSON.parse(run.stdout), [account, account, account]);
      const index = await cli(["index", "--query", "length(trades)"]);
      assert.equal(index.stdout.trim(), "8");
    });

    it("api sends any request with auth and base URL applied, and pages with --paginate", async () => {
      const path = `/api/admin/v1/keys?account=${account}&limit=1`;
      const run = await cli(["api", "GET", path, "--paginate", "--query", "length(@)"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout.trim(), "3");
      const { key } = await t.issueKey({ account: "acme-scripting-api" });
      const body = JSON.stringify({ trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent" });
      const quote = await cli(["api", "POST", "/api/dispatch/v1/quote", "--data", body, "-o", "json"], {
        DISPATCH_API_KEY: key,
      });
      assert.equal(quote.code, 0, quote.stderr);
      assert.equal(typeof JSON.parse(quote.stdout), "object");
    });

    it("api answers a failure with one JSON error object on stderr under -o ndjson", async () => {
      const run = await cli(["api", "GET", "/api/admin/v1/keys", "-o", "ndjson"], {});
      assert.equal(run.code, 4);
      assert.ok(oneLine(run.stderr));
      assert.equal((JSON.parse(run.stderr) as { error: { status: number } }).error.status, 401);
    });

    it("--dry-run prints a curl command that, run with --show-secrets, performs the same request", async () => {
      const args = ["admin", "keys", "list", "--account", account, "--dry-run"];
      const masked = await cli(args);
      assert.equal(masked.code, 0, masked.stderr);
      assert.match(masked.stdout, /authorization: Bearer \*\*\*\*'/);
      assert.ok(!masked.stdout.includes(adminToken));
      const shown = await cli([...args, "--show-secrets"]);
      // Async: the server runs in this process, so a blocking child would deadlock it.
      const { stdout: answer } = await promisify(execFile)("bash", ["-c", `${shown.stdout.trim()} --silent --fail`]);
      assert.equal((JSON.parse(answer) as { items: unknown[] }).items.length, 3);
    });
  });

  describe("against the Prism mock", () => {
    let prism: PrismHandle;
    const env = () => ({ DISPATCH_BASE_URL: prism.url, DISPATCH_API_KEY: "dispatch_test_cli" });
    before(async () => (prism = await startPrism({ mode: "mock" })));
    after(async () => prism?.stop());

    it("audit list --paginate -o ndjson prints the example's items, one per line", async () => {
      const run = await runCli(["audit", "list", "--paginate", "-o", "ndjson"], { env: env() });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(ndjsonLines(run.stdout).length >= 1);
    });

    it("api GET with --query reads the contract's example", async () => {
      const run = await runCli(["api", "GET", "/api/dispatch/index", "--query", "length(trades)"], { env: env() });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout.trim(), "8");
    });
  });

  describe("before sending", () => {
    let recorder: Recorder;
    before(async () => (recorder = await startRecorder()));
    after(async () => recorder?.stop());
    const run = (args: string[]) => runCli([...args, "--base-url", recorder.url]);

    it("--dry-run sends nothing and masks the API key", async () => {
      const before = recorder.requests.length;
      const result = await run([
        "order",
        "--trade",
        "plumbing",
        "--state",
        "TX",
        "--zip",
        "78701",
        "--urgency",
        "urgent",
        "--description",
        "Kitchen sink leaking",
        "--api-key",
        "dispatch_test_supersecret",
        "--dry-run",
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(recorder.requests.length, before);
      assert.match(result.stdout, /^curl -X POST '.*\/api\/dispatch\/v1\/order'/);
      assert.match(result.stdout, /idempotency-key: [0-9a-f-]{36}/);
      assert.ok(!result.stdout.includes("supersecret"));
    });

    for (const [name, args] of [
      ["an invalid --query", ["index", "--query", "items[?"]],
      ["--paginate on a command that is not a list", ["index", "--paginate"]],
      ["an unknown api method", ["api", "TRACE", "/api/dispatch/index"]],
      ["an api path without a leading /", ["api", "GET", "api/dispatch/index"]],
    ] as const) {
      it(`refuses ${name} with exit 2 and sends nothing`, async () => {
        const before = recorder.requests.length;
        const result = await run([...args]);
        assert.equal(result.code, 2, result.stderr);
        assert.equal(recorder.requests.length, before);
      });
    }
  });
});
