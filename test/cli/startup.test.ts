// What `dispatch --help` loads (its start time is measured by `npm run bench`): the bin and the one start-up bundle,
// none of the dependency files of cli/dist/vendor and none of the Node modules only commands need; and the compile
// cache the bin turns on (Node 22 or later; Node 20 has none).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { node22 } from "../helpers/node22.js";
import { bin } from "./run-cli.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

/** Runs the bin with `args` in a Node that reports, at exit, the files it required and the built-ins it loaded. */
async function loadedBy(args: string[]): Promise<{ files: string[]; builtins: string[] }> {
  const probe = `
    const before = new Set(process.moduleLoadList);
    process.on("exit", () => {
      const builtins = process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith("NativeModule "));
      process.stderr.write(JSON.stringify({ files: Object.keys(require.cache), builtins: builtins.map((m) => m.slice(13)) }));
    });
    process.argv = [process.execPath, ${JSON.stringify(bin)}, ...${JSON.stringify(args)}];
    require(${JSON.stringify(bin)});`;
  const { DISPATCH_CLI_FROM_SOURCE: _fromSource, ...env } = process.env;
  const { stderr } = await run(process.execPath, ["-e", probe], { env });
  return JSON.parse(stderr) as { files: string[]; builtins: string[] };
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
