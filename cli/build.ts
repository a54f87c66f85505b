// Bundles the CLI and the SDK into cli/dist/ so the published package has no runtime dependencies: dispatch.cjs
// (our code, commander and openapi-fetch; CommonJS, so Node starts it without its ES module loader; action-only code
// is evaluated on first import) and vendor/<package>.cjs (every other dependency, read only when a command needs it).
// Generated tables go in as JSON.parse of a string (jsonTables below). Why, with the start-up costs as measured:
// docs/decisions.md, "The CLI bundle".
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { build, type Plugin } from "esbuild";

const cliDir = fileURLToPath(new URL(".", import.meta.url));
const outdir = `${cliDir}dist`;
/** Dependencies bundled into dispatch.cjs itself: what parsing the command line and building a request need. */
const startup = new Set(["commander", "openapi-fetch"]);
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

/** The generated data tables as JSON.parse of one string literal each, checked to round-trip: V8 scans a string and
 * parses JSON several times faster than it parses the same data written as an object literal. */
const jsonTables: Plugin = {
  name: "json-tables",
  setup(b) {
    b.onLoad({ filter: /[\\/]cli[\\/]generated[\\/](operations|request-schemas)\.ts$/ }, async ({ path }) => {
      const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
      const lines = Object.entries(mod).map(([name, value]) => {
        const json = JSON.stringify(value);
        if (!isDeepStrictEqual(JSON.parse(json), value)) throw new Error(`${path}: ${name} does not round-trip JSON`);
        return `export const ${name} = JSON.parse(${JSON.stringify(json)});`;
      });
      return { loader: "js", contents: lines.join("\n") };
    });
  },
};

/** In the bundle, the request validators are the ones compiled at build time (buildValidators), each read from
 * dist/validators/ when its command first runs, instead of ajv compiling the schema at every run. */
const prebuiltValidators: Plugin = {
  name: "prebuilt-validators",
  setup(b) {
    b.onLoad({ filter: /[\\/]cli[\\/]request-validator\.ts$/ }, () => ({
      loader: "js",
      contents: [
        'const { join } = require("node:path");',
        "export function validatorFor(operationId) {",
        '  return require(join(__dirname, "validators", `${operationId}.cjs`));',
        "}",
      ].join("\n"),
    }));
  },
};

/**
 * Each command's request validator as standalone code (ajv's `standaloneCode`, with the options and formats the
 * source uses: cli/request-validator.ts), bundled on its own with ajv's runtime helpers into dist/validators/.
 */
async function buildValidators(): Promise<number> {
  const [{ _ }, { default: standalone }, { newAjv }, { requestSchemas }] = await Promise.all([
    import("ajv"),
    import("ajv/dist/standalone/index.js"),
    import("./request-validator.js"),
    import("./generated/request-schemas.js"),
  ]);
  const formats = _`require("ajv-formats/dist/formats").fullFormats`;
  const ajv = newAjv({ code: { source: true, esm: false, formats } });
  const sources = `${outdir}/validators-src`;
  mkdirSync(sources, { recursive: true });
  const entryPoints: Record<string, string> = {};
  for (const [operationId, schema] of Object.entries(requestSchemas)) {
    entryPoints[operationId] = `${sources}/${operationId}.cjs`;
    writeFileSync(entryPoints[operationId], standalone.default(ajv, ajv.compile(schema)));
  }
  await build({ ...common, entryPoints, outdir: `${outdir}/validators`, outExtension: { ".js": ".cjs" } });
  rmSync(sources, { recursive: true, force: true });
  return Object.keys(entryPoints).length;
}

rmSync(outdir, { recursive: true, force: true });
const vendored = new Set<string>();
await build({
  ...common,
  entryPoints: { dispatch: `${cliDir}main.ts` },
  outdir,
  outExtension: { ".js": ".cjs" },
  legalComments: "linked",
  plugins: [vendorPlugin(vendored), lazyChildProcess, jsonTables, prebuiltValidators],
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
const validators = await buildValidators();
console.log(`built cli/dist/dispatch.cjs, ${vendored.size} vendor files and ${validators} request validators`);
