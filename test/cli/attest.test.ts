// `dispatch attest verify` and `dispatch attest monitor` against a running server: offline checks with a pinned key,
// and a loud failure when the remembered checkpoint is not a prefix of the log's.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkpointText, createNoteSigner } from "../../server/services/audit/note.js";
import { quoteRequest } from "../fixtures/requests.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { runCli } from "./run-cli.js";

describe("cli attest", function () {
  this.timeout(90_000);
  let t: TestServer;
  let env: Record<string, string>;
  let dir: string;
  before(async () => {
    t = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), "dispatch-attest-"));
    env = { DISPATCH_BASE_URL: t.url, DISPATCH_CONFIG: join(dir, "config.json") };
  });
  after(() => t?.stop());

  const quote = async () => {
    const { key } = await t.issueKey({ account: "cli-attest" });
    const response = await fetch(`${t.url}/api/dispatch/v1/quote`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(quoteRequest),
    });
    return ((await response.json()) as { seal: string }).seal;
  };

  it("verify pins the key on first use and checks the proof offline", async () => {
    const seal = await quote();
    await t.app.services.auditLog.flush();
    const run = await runCli(["attest", "verify", seal, "--output", "json"], { env });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /pinned log key/);
    assert.equal(JSON.parse(run.stdout).verified_offline, true);
  });

  it("monitor accepts a log that grew and fails loudly on a rewritten history", async () => {
    assert.equal((await runCli(["attest", "monitor", "--output", "json"], { env })).code, 0);
    await quote();
    await t.app.services.auditLog.flush();
    const grown = await runCli(["attest", "monitor", "--output", "json"], { env });
    assert.equal(grown.code, 0, grown.stderr);
    // A checkpoint with the log's own key but another root: what a forked log would have shown us before.
    const { private_key } = await t.app.services.db("audit_signing_keys").first("private_key");
    const state = JSON.parse(readFileSync(join(dir, "attest.json"), "utf8"));
    const size = JSON.parse(grown.stdout).tree_size - 1;
    const forged = createNoteSigner(private_key).sign(
      checkpointText("dispatch.example/audit", size, Buffer.alloc(32, 7)),
    );
    writeFileSync(join(dir, "attest.json"), JSON.stringify({ ...state, checkpoint: forged }));
    const forked = await runCli(["attest", "monitor"], { env });
    assert.notEqual(forked.code, 0);
    assert.match(forked.stderr, /FORK OR REWRITE/);
  });
});
