// What `dispatch --help` loads (its start time is measured by `npm run bench`): the bin and the one start-up bundle,
// none of the dependency files of cli/dist/vendor and none of the Node modules only commands need; what a real
// command loads (its own prebuilt validator, node:http, never ajv or undici); and the compile cache the bin turns on
// (Node 22 or later; Node 20 has none).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { node22 } from "../helpers/node22.js";
import { bin, startRecorder } from "./run-cli.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

/** Runs the bin with `args` in a Node that reports, at exit, the files it required and the built-ins it loaded. */
async function loadedBy(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ files: string[]; builtins: string[] }> {
  const probe = `
    const before = new Set(process.moduleLoadList);
    process.on("exit", () => {
      const builtins = process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith("NativeModule "));
      process.stderr.write(JSON.stringify({ files: Object.keys(require.cache), builtins: builtins.map((m) => m.slice(13)) }));
    });
    process.argv = [process.execPath, ${JSON.stringify(bin)}, ...${JSON.stringify(args)}];
    require(${JSON.stringify(bin)});`;
  const { DISPATCH_CLI_FROM_SOURCE: _fromSource, ...env } = process.env;
  const { stderr } = await run(process.execPath, ["-e", probe], { env: { ...env, ...extraEnv } });
  return JSON.parse(stderr.slice(stderr.lastIndexOf('{"files"'))) as { files: string[]; builtins: string[] };
}

/** The quote every real-command case sends. */
const quote = ["quote", "--trade", "plumbing", "--state", "TX", "--city", "Austin", "-o", "json"];

/** Loaded only by what a short command does not need: ajv (validators are prebuilt), Node's fetch (undici), the
 * ES module loader a dynamic import() of a built-in starts, and crypto (an order's Idempotency-Key is read from
 * /dev/urandom: cli/random-uuid.ts). */
function assertLean({ files, builtins }: { files: string[]; builtins: string[] }): void {
  assert.deepEqual(
    files.filter((f) => f.includes("ajv")),
    [],
  );
  for (const name of ["internal/deps/undici/undici", "crypto", "internal/crypto/webcrypto", "tls"])
    assert.ok(!builtins.includes(name), name);
}

describe("cli start-up", function () {
  this.timeout(120_000);
  before(async () => {
    if (!existsSync(`${root}cli/dist/dispatch.cjs`)) await run("npm", ["run", "build:cli"], { cwd: root });
  });

  for (const args of [["--help"], ["--version"], ["orders", "--help"]])
    it(`dispatch ${args.join(" ")} loads the bundle alone, without child_process or crypto`, async () => {
      const { files, builtins } = await loadedBy(args);
      assert.deepEqual(files, [bin, `${root}cli/dist/dispatch.cjs`]);
      // (os is loaded: the compile cache's default directory is os.tmpdir(); it costs no measurable start time)
      for (const name of ["child_process", "crypto"]) assert.ok(!builtins.includes(name), builtins.join(" "));
    });

  it("dispatch quote --dry-run loads the bundle and its own prebuilt validator, not ajv, undici or node:http", async () => {
    const loaded = await loadedBy([...quote, "--dry-run"]);
    const dist = `${root}cli/dist/`;
    assert.deepEqual(loaded.files, [bin, `${dist}dispatch.cjs`, `${dist}validators/createQuote.cjs`]);
    assertLean(loaded);
    assert.ok(!loaded.builtins.includes("http"));
  });

  it("dispatch quote sends over node:http without loading undici, ajv or TLS", async () => {
    const recorder = await startRecorder();
    try {
      recorder.answer = { status: 201, body: { quote_id: "qt_1" } };
      const loaded = await loadedBy([...quote, "--base-url", recorder.url], { DISPATCH_API_KEY: "dispatch_test_x" });
      assert.equal(recorder.requests.length, 1);
      assert.equal(recorder.requests[0].headers["x-api-key"], "dispatch_test_x");
      assert.ok(loaded.builtins.includes("http"));
      assertLean(loaded);
    } finally {
      await recorder.stop();
    }
  });

  it("dispatch order sends a fresh version 4 UUID as its Idempotency-Key without loading node:crypto", async () => {
    const recorder = await startRecorder();
    try {
      recorder.answer = { status: 201, body: { order: { id: "ord_1", status: "pending_dispatch" } } };
      const order = ["order", "--trade", "plumbing", "--state", "TX", "--city", "Austin", "--zip", "78701"];
      const args = [...order, "--address", "1 Main St", "--urgency", "urgent", "--description", "Leaking sink."];
      const env = { DISPATCH_API_KEY: "dispatch_test_x" };
      for (let i = 0; i < 2; i++) assertLean(await loadedBy([...args, "--base-url", recorder.url, "-o", "json"], env));
      const keys = recorder.requests.map((r) => r.headers["idempotency-key"]);
      assert.equal(keys.length, 2);
      for (const key of keys)
        assert.match(String(key), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.notEqual(keys[0], keys[1]);
    } finally {
      await recorder.stop();
    }
  });

  it("the bin writes V8's compile cache under the temp dir, and leaves it alone with NODE_DISABLE_COMPILE_CACHE=1", async () => {
    const node = await node22();
    /** Runs `dispatch --help` with a temp dir of its own; answers the cache entries written there. */
    const cacheWritten = async (disabled: boolean) => {
      const dir = mkdtempSync(join(tmpdir(), "dispatch-cli-compile-cache-"));
      try {
        const { DISPATCH_CLI_FROM_SOURCE: _fromSource, NODE_COMPILE_CACHE: _cache, ...env } = process.env;
        const extra = disabled ? { NODE_DISABLE_COMPILE_CACHE: "1" } : {};
        const { stdout } = await run(node, [bin, "--help"], { env: { ...env, TMPDIR: dir, ...extra } });
        assert.match(stdout, /^Usage: dispatch /);
        const cache = join(dir, "node-compile-cache");
        return existsSync(cache) ? readdirSync(cache, { recursive: true }).map(String) : [];
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    assert.deepEqual(await cacheWritten(true), []);
    assert.ok((await cacheWritten(false)).length > 0);
  });
});
