// What `dispatch --help` loads (its start time is measured by `npm run bench`): the bin and the one start-up bundle,
// none of the dependency files of cli/dist/vendor and none of the Node modules only commands need.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
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
    it(`dispatch ${args.join(" ")} loads the bundle alone, without child_process, crypto or os`, async () => {
      const { files, builtins } = await loadedBy(args);
      assert.deepEqual(files, [bin, `${root}cli/dist/dispatch.cjs`]);
      for (const name of ["child_process", "crypto", "os"]) assert.ok(!builtins.includes(name), builtins.join(" "));
    });
});
