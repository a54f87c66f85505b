// Compiles the server to JavaScript in server/dist/ so it runs without a TypeScript loader:
// - dist/server/**: every module of server/ transpiled one to one (routes and migrations are found by listing their
//   directories at run time, so the layout is kept rather than bundled into one file).
// - dist/openapi.yaml: the contract the server reads, where `../openapi.yaml` from dist/server finds it, and
//   dist/openapi.json, its parse, so the server does not parse YAML at start (see contract.ts).
// - dist/assets/redoc.standalone.js: the /docs page's script, so the package needs neither redoc nor a CDN.
// - dist/pglite-snapshot.tar.gz: a migrated PGlite data directory that `pglite://memory` starts from (see snapshot.ts).
// Bare imports stay imports: they are server/package.json's dependencies (a unit test holds the two equal).
import { execSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
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

/** True when dist/ is missing or older than a source file (for `npm start` straight after a clone or an edit). */
function isStale(): boolean {
  try {
    const built = statSync(join(outdir, "build-info.json")).mtimeMs;
    return [...sources(), join(serverDir, "..", "openapi.yaml")].some((file) => statSync(file).mtimeMs > built);
  } catch {
    return true;
  }
}

export async function buildServer(): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: sources(),
    outdir: join(outdir, "server"),
    outbase: serverDir,
    format: "esm",
    platform: "node",
    target: "node20",
    bundle: false,
    logLevel: "warning",
  });
  copyFileSync(join(serverDir, "..", "openapi.yaml"), join(outdir, "openapi.yaml"));
  const contract: unknown = parse(readFileSync(join(outdir, "openapi.yaml"), "utf8"));
  writeFileSync(join(outdir, "openapi.json"), JSON.stringify(contract));
  const redoc = dirname(createRequire(import.meta.url).resolve("redoc/package.json"));
  mkdirSync(join(outdir, "assets"), { recursive: true });
  copyFileSync(join(redoc, "bundles", "redoc.standalone.js"), join(outdir, "assets", "redoc.standalone.js"));
  // The built modules make the snapshot, so it holds exactly the migrations the package ships.
  const { writeSnapshot } = (await import(
    pathToFileURL(join(outdir, "server", "db", "snapshot.js")).href
  )) as typeof import("./db/snapshot.js");
  await writeSnapshot(join(outdir, "pglite-snapshot.tar.gz"));
  writeFileSync(join(outdir, "build-info.json"), `${JSON.stringify({ buildHash: buildHash() })}\n`);
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === "") {
  const started = performance.now();
  if (process.argv.includes("--if-stale") && !isStale()) process.exit(0);
  await buildServer();
  console.log(
    `server built into ${relative(process.cwd(), outdir) || "."} in ${Math.round(performance.now() - started)} ms`,
  );
}
