// The built server turns on Node's compile cache before it loads its modules (server/compile-cache.ts), so a restart
// reuses V8's compiled code. Node 20 has no compile cache: the test runs the built server on Node 22 or later.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { node22 } from "../helpers/node22.js";
import { ensureFreshBuild, spawnServer } from "../helpers/server-process.js";

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string) => readdirSync(dir, { recursive: true }).map(String);

describe("built server's compile cache", function () {
  this.timeout(300_000);
  let node: string;
  const cacheDirs: string[] = [];
  before(async () => {
    await ensureFreshBuild();
    node = await node22();
  });
  after(() => {
    for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Starts and stops the server with a temp dir of its own; answers the cache entries it wrote there. */
  async function cacheWritten(args: readonly string[], disabled: boolean): Promise<string[]> {
    const cacheDir = mkdtempSync(join(tmpdir(), "dispatch-compile-cache-"));
    cacheDirs.push(cacheDir);
    // The server enables the cache itself, in its default place under the temp dir (NODE_COMPILE_CACHE would
    // enable it on its own, so it is not set): a temp dir of its own shows what the server wrote.
    const env = { TMPDIR: cacheDir, ...(disabled ? { NODE_DISABLE_COMPILE_CACHE: "1" } : {}) };
    const server = spawnServer(env, node, [...args]);
    await server.waitFor(/dispatch listening on/);
    server.child.kill("SIGTERM");
    assert.equal(await server.exited, 0, server.output());
    const cache = join(cacheDir, "node-compile-cache");
    return existsSync(cache) ? filesUnder(cache) : [];
  }

  for (const [name, args] of [
    ["npm start's main.js", ["server/dist/server/main.js"]],
    ["the dispatch-server bin", ["server/dist/server/bin/dispatch-server.js", "start"]],
  ] as const)
    it(`is written by ${name} for the server's modules, and left alone with NODE_DISABLE_COMPILE_CACHE=1`, async () => {
      // The two starts run at once: each has its own temp dir, so neither sees the other's cache.
      const [whenDisabled, written] = await Promise.all([cacheWritten(args, true), cacheWritten(args, false)]);
      assert.deepEqual(whenDisabled, [], "NODE_DISABLE_COMPILE_CACHE=1 leaves the cache alone");
      // one entry per compiled module: the server's own and its vendor chunks, far more than the entry file alone
      assert.ok(written.length > 20, `cache entries: ${written.length}`);
    });
});
