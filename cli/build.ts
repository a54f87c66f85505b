// Bundles the CLI and the SDK into cli/dist/ so the published package has no runtime dependencies:
// - dispatch.cjs: our code and commander, all that `dispatch --help` loads. CommonJS, because Node runs a CommonJS
//   file without starting its ES module loader (several ms); code that only runs in an action (the SDK, output
//   formats, config files, SSE) is in it but evaluated only when the action first imports it.
// - vendor/<package>.cjs: every other dependency (yaml, jmespath, openapi-fetch …), each its own file, read from disk
//   only when a command needs it.
import { rmSync } from "node:fs";
import { isBuiltin } from "node:module";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const cliDir = fileURLToPath(new URL(".", import.meta.url));
const outdir = `${cliDir}dist`;
/** Dependencies bundled into dispatch.cjs itself: what parsing the command line needs. */
const startup = new Set(["commander"]);
const common = { bundle: true, format: "cjs", platform: "node", target: "node20", minify: true } as const;

const vendorFile = (specifier: string) => `vendor/${specifier.replace(/\//g, "+")}.cjs`;

/**
 * Sends every bare import except the start-up ones to dist/vendor/ (recording which were seen) through a small ES
 * module that re-exports it, so a default import gets the package's default export, not its whole CommonJS exports.
 */
function vendorPlugin(seen: Set<string>): Plugin {
  return {
    name: "vendor",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, ({ path }) => {
        const name = path.startsWith("@") ? path.split("/", 2).join("/") : path.split("/")[0];
        if (isBuiltin(path) || startup.has(name)) return undefined;
        seen.add(path);
        return { path, namespace: "vendor" };
      });
      b.onResolve({ filter: /^\.\/vendor\//, namespace: "vendor" }, ({ path }) => ({ path, external: true }));
      b.onLoad({ filter: /.*/, namespace: "vendor" }, ({ path }) => {
        const file = JSON.stringify(`./${vendorFile(path)}`);
        return {
          loader: "js",
          contents: `import * as m from ${file};\nexport * from ${file};\nexport default m.default;\n`,
        };
      });
    },
  };
}

/** commander requires node:child_process (and with it net, dgram, stream) only to run executable subcommands, which
 * `dispatch` has none of: a stand-in loads it on first use instead of at every start. */
const lazyChildProcess: Plugin = {
  name: "lazy-child-process",
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, ({ importer }) =>
      importer.includes("/node_modules/commander/") ? { path: "child_process", namespace: "lazy" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy" }, () => ({
      loader: "js",
      contents:
        'let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require("node:child_process"))[key] });',
    }));
  },
};

rmSync(outdir, { recursive: true, force: true });
const vendored = new Set<string>();
await build({
  ...common,
  entryPoints: { dispatch: `${cliDir}main.ts` },
  outdir,
  outExtension: { ".js": ".cjs" },
  legalComments: "linked",
  plugins: [vendorPlugin(vendored), lazyChildProcess],
  logLevel: "warning",
});
for (const specifier of vendored)
  await build({
    ...common,
    stdin: { contents: `module.exports = require(${JSON.stringify(specifier)});`, resolveDir: cliDir },
    outfile: `${outdir}/${vendorFile(specifier)}`,
    legalComments: "linked",
    logLevel: "warning",
  });
console.log(`built cli/dist/dispatch.cjs and ${vendored.size} vendor files`);
