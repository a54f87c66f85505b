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
    assert.match(run.stderr, new RegExp(`pinned log key .* for ${t.url}`));
    // the verify answer's deprecated chain_position is not read: no notice about the command's own request
    assert.doesNotMatch(run.stderr, /deprecated/i);
    assert.equal(JSON.parse(run.stdout).verified_offline, true);
  });

  it("monitor accepts a log that grew and fails loudly on a rewritten history", async () => {
    assert.equal((await runCli(["attest", "monitor", "--output", "json"], { env })).code, 0);
    await quote();
    await t.app.services.auditLog.flush();
    const grown = await runCli(["attest", "monitor", "--output", "json"], { env });
    assert.equal(grown.code, 0, grown.stderr);
    // A checkpoint with the log's own key but another root: what a forked log would have shown us before.
    const { private_key } = (await t.app.services.db("audit_signing_keys").first("private_key"))!;
    const state = JSON.parse(readFileSync(join(dir, "attest.json"), "utf8"));
    const size = JSON.parse(grown.stdout).tree_size - 1;
    const forged = createNoteSigner(private_key).sign(
      checkpointText("dispatch.example/audit", size, Buffer.alloc(32, 7)),
    );
    state.logs[t.url].checkpoint = forged;
    writeFileSync(join(dir, "attest.json"), JSON.stringify(state));
    const forked = await runCli(["attest", "monitor"], { env });
    assert.notEqual(forked.code, 0);
    assert.match(forked.stderr, /FORK OR REWRITE/);
  });

  describe("with a second server", () => {
    let other: TestServer;
    before(async () => {
      other = await startTestServer();
    });
    after(() => other?.stop());

    const sealAt = async (server: TestServer) => {
      const { key } = await server.issueKey({ account: "cli-attest" });
      const response = await fetch(`${server.url}/api/dispatch/v1/quote`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify(quoteRequest),
      });
      const { seal } = (await response.json()) as { seal: string };
      await server.app.services.auditLog.flush();
      return seal;
    };

    it("pins each server's key under its base URL, so both verify from one config directory", async () => {
      const first = await runCli(["attest", "verify", await sealAt(t)], { env });
      assert.equal(first.code, 0, first.stderr);
      const second = await runCli(["attest", "verify", await sealAt(other), "--base-url", other.url], { env });
      assert.equal(second.code, 0, second.stderr);
      const { logs } = JSON.parse(readFileSync(join(dir, "attest.json"), "utf8")) as { logs: Record<string, object> };
      assert.ok(logs[t.url] && logs[other.url], JSON.stringify(logs));
    });

    it("names the pin's file and how to re-pin when the pinned key does not sign the log, and re-pins", async () => {
      const state = JSON.parse(readFileSync(join(dir, "attest.json"), "utf8"));
      state.logs[other.url].key = state.logs[t.url].key; // the first server's key, pinned for the second
      writeFileSync(join(dir, "attest.json"), JSON.stringify(state));
      const seal = await sealAt(other);
      const refused = await runCli(["attest", "verify", seal, "--base-url", other.url], { env });
      assert.equal(refused.code, 8);
      assert.match(refused.stderr, /no valid signature/);
      assert.ok(refused.stderr.includes(`pinned for ${other.url} in ${join(dir, "attest.json")}`), refused.stderr);
      assert.match(refused.stderr, /--key/);
      assert.match(refused.stderr, /dispatch attest pin/);
      const repinned = await runCli(["attest", "pin", "--base-url", other.url], { env });
      assert.equal(repinned.code, 0, repinned.stderr);
      assert.equal(JSON.parse(repinned.stdout).replaced, true);
      const verified = await runCli(["attest", "verify", seal, "--base-url", other.url], { env });
      assert.equal(verified.code, 0, verified.stderr);
    });
  });
});
