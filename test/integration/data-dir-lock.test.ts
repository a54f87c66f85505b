// The embedded database's data directory is held by one server at a time.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, serverArgs } from "../helpers/server-process.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** Runs `npm start`'s entry point (the build) in a child with the given environment; resolves with its exit code and stderr. */
function runServerProcess(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, serverArgs(), {
      cwd: root,
      env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "silent", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000); // bounded: a server that starts is a failure
    child.on("exit", (code) => {
      clearTimeout(guard);
      resolve({ code, stderr });
    });
  });
}

describe("PGlite data directory lock", function () {
  this.timeout(90_000);
  let dir: string;
  let first: TestServer | undefined;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "dispatch-lock-"))));
  afterEach(async () => {
    await first?.stop();
    first = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a second server on the same directory, naming the directory and the running holder", async () => {
    const data = join(dir, "data");
    first = await startTestServer(undefined, { DATABASE_URL: `pglite://${data}` });
    const second = await runServerProcess({ DATABASE_URL: `pglite://${data}` });
    assert.equal(second.code, 1);
    assert.match(second.stderr, /DATABASE_URL: the data directory .* is in use by another dispatch server/);
    assert.ok(second.stderr.includes(data), second.stderr);
    assert.ok(second.stderr.includes(`(pid ${process.pid} on this host, lock `), second.stderr); // this process serves it
  });

  it("frees the directory when the server stops", async () => {
    const data = join(dir, "data");
    first = await startTestServer(undefined, { DATABASE_URL: `pglite://${data}` });
    await first.stop();
    first = await startTestServer(undefined, { DATABASE_URL: `pglite://${data}` });
    const health = await fetch(`${first.url}/healthz`);
    assert.equal(health.status, 200);
  });

  it("takes over a stale lock left by a process that died", async () => {
    const data = join(dir, "data");
    mkdirSync(`${data}.lock`, { recursive: true });
    const longAgo = new Date(Date.now() - 3_600_000);
    utimesSync(`${data}.lock`, longAgo, longAgo);
    first = await startTestServer(undefined, { DATABASE_URL: `pglite://${data}` });
    assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
  });
});
