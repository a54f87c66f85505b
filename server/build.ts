// Compiles the server to JavaScript in server/dist/ so it runs without a TypeScript loader: each server module one
// file, the packages they import bundled into shared chunks except the runtime externals (server/package.json's
// dependencies), and beside them the contract and its parse, the /docs page's script and a migrated PGlite
// snapshot holding the demo pool (docs/decisions.md, "The server build").
import { execSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Metafile, type Plugin } from "esbuild";
import { parse } from "yaml";

const serverDir = fileURLToPath(new URL(".", import.meta.url));
const outdir = join(serverDir, "dist");

/** server/**.ts except tests, declarations, the build itself and earlier output. */
function sources(dir = serverDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === outdir || entry.name === "node_modules" ? [] : sources(path);
    const skip =
      !entry.name.endsWith(".ts") || /\.(test|d)\.ts$/.test(entry.name) || path === join(serverDir, "build.ts");
    return skip ? [] : [path];
  });
}

/** Packages left to Node at run time, server/package.json's dependencies: PGlite loads its wasm and data files from
 * its own package; pg is required only for postgres:// URLs; yaml parses the contract only when its JSON is missing. */
export const runtimeDependencies = ["@electric-sql/pglite", "pg", "yaml"];

/** Drivers and a pretty-printer that bundled knex and pino name but the server never loads (it configures none). */
export const neverLoaded = [
  "pg-native",
  "pg-query-stream",
  "sqlite3",
  "better-sqlite3",
  "mysql",
  "mysql2",
  "oracledb",
  "tedious",
  "mariadb",
  "mariadb/*",
  "pino-pretty",
];

/**
 * Our own modules are not bundled into each other: an import between two server files stays an import, so every
 * module keeps its own file at its source path (import.meta.url, the route and migration directory listings and stack
 * traces stay as in the sources). Only the packages they import are bundled, into shared chunks under vendor/, which
 * Node loads in a fraction of the time it spends resolving and compiling hundreds of small package files.
 */
const ownModulesStayApart: Plugin = {
  name: "own-modules-stay-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) =>
      args.importer.startsWith(serverDir) && !args.importer.includes("node_modules")
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/** The licence texts of the packages bundled into vendor/ (their licences ask that copies keep the notice). */
function thirdPartyNotices(inputs: string[]): string {
  const roots = new Set<string>();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) roots.add(match[1]);
  }
  const sections = [...roots].sort().map((root) => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      name: string;
      version: string;
      license?: string;
    };
    const licenceFile = readdirSync(root).find((name) => /^(licen[cs]e|copying)/i.test(name));
    const text = licenceFile
      ? readFileSync(join(root, licenceFile), "utf8").trim()
      : `License: ${pkg.license ?? "see package"}`;
    return `## ${pkg.name} ${pkg.version} (${pkg.license ?? "unknown"})\n\n\`\`\`\n${text}\n\`\`\`\n`;
  });
  return [`# Third-party notices\n\nPackages bundled into \`server/vendor/\` by the build.\n`, ...sections].join("\n");
}

/** The commit built, or a hash of the contract and lockfile outside git; the package's capability index reports it. */
function buildHash(): string {
  try {
    return execSync("git rev-parse --short=12 HEAD", { cwd: serverDir, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    const material = ["openapi.yaml", "package-lock.json"].map((f) => readFileSync(join(serverDir, "..", f), "utf8"));
    return `sha256:${createHash("sha256").update(material.join("\n")).digest("hex").slice(0, 16)}`;
  }
}

/**
 * Why dist/ is out of date, or null when it is not: missing, or older than a source file or the contract (`npm
 * start` rebuilds then; the tests that spawn the built server refuse to run a stale one).
 */
export function staleness(): string | null {
  let built: number;
  try {
    built = statSync(join(outdir, "build-info.json")).mtimeMs;
  } catch {
    return `${relative(process.cwd(), outdir) || "."} has no build`;
  }
  const newer = [...sources(), join(serverDir, "..", "openapi.yaml")].find((file) => statSync(file).mtimeMs > built);
  return newer ? `${relative(process.cwd(), newer)} changed after the last build` : null;
}

/**
 * The built modules make the snapshot, so it holds exactly the migrations and demo pool the package ships (an
 * in-memory server then starts seeded; one started without the pool removes it: settleDemoPool).
 */
async function writeBuiltSnapshot(): Promise<void> {
  const built = (path: string) => pathToFileURL(join(outdir, "server", path)).href;
  const { writeSnapshot } = (await import(built("db/snapshot.js"))) as typeof import("./db/snapshot.js");
  const { createContractorService } = (await import(
    built("services/dispatch/contractors.js")
  )) as typeof import("./services/dispatch/contractors.js");
  const { seedDemoContractors } = (await import(
    built("services/sandbox/demo-contractors.js")
  )) as typeof import("./services/sandbox/demo-contractors.js");
  await writeSnapshot(join(outdir, "pglite-snapshot.tar.gz"), async (db) => {
    await seedDemoContractors(createContractorService(db));
  });
}

export async function buildServer(): Promise<Metafile> {
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({
    entryPoints: sources(),
    outdir: join(outdir, "server"),
    outbase: serverDir,
    format: "esm",
    platform: "node",
    target: "node20",
    bundle: true,
    splitting: true,
    chunkNames: "vendor/[name]-[hash]",
    external: [...runtimeDependencies, ...neverLoaded],
    plugins: [ownModulesStayApart],
    // Bundled CommonJS code calls require() for the externals (knex's driver, pg, PGlite): give ESM chunks one.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    metafile: true,
    logLevel: "warning",
  });
  writeFileSync(join(outdir, "THIRD-PARTY-NOTICES.md"), thirdPartyNotices(Object.keys(metafile.inputs)));
  copyFileSync(join(serverDir, "..", "openapi.yaml"), join(outdir, "openapi.yaml"));
  const contract: unknown = parse(readFileSync(join(outdir, "openapi.yaml"), "utf8"));
  writeFileSync(join(outdir, "openapi.json"), JSON.stringify(contract));
  const redoc = dirname(createRequire(import.meta.url).resolve("redoc/package.json"));
  mkdirSync(join(outdir, "assets"), { recursive: true });
  copyFileSync(join(redoc, "bundles", "redoc.standalone.js"), join(outdir, "assets", "redoc.standalone.js"));
  await writeBuiltSnapshot();
  writeFileSync(join(outdir, "build-info.json"), `${JSON.stringify({ buildHash: buildHash() })}\n`);
  return metafile;
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === "") {
  const started = performance.now();
  if (process.argv.includes("--if-stale") && staleness() === null) process.exit(0);
  await buildServer();
  console.log(
    `server built into ${relative(process.cwd(), outdir) || "."} in ${Math.round(performance.now() - started)} ms`,
  );
}
