// The built server bundles the packages it imports into dist/server/vendor/ and leaves a few to Node at run time
// (build.ts's runtimeDependencies). Those few must be exactly @dispatch/server's dependencies, or the installed
// package fails at the first request that loads them; everything else must really be bundled.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Metafile } from "esbuild";
import { buildServer, neverLoaded, runtimeDependencies } from "../../server/build.js";

const serverDir = fileURLToPath(new URL("../../server/", import.meta.url));
const packageOf = (specifier: string) => specifier.split("/", specifier.startsWith("@") ? 2 : 1).join("/");

/**
 * Bare specifiers the built files hand to Node: what esbuild left external (its metafile records static and dynamic
 * imports and bundled CommonJS's require calls) plus our own `createRequire(import.meta.url)("x")`, which esbuild
 * does not follow (found in our modules' text; vendor/ is package code, where such strings are comments).
 */
function runtimeSpecifiers(metafile: Metafile, dir: string): Set<string> {
  const found = new Set<string>();
  for (const output of Object.values(metafile.outputs))
    for (const { path, external } of output.imports) if (external && !path.startsWith(".")) found.add(path);
  for (const file of readdirSync(dir, { recursive: true }).map(String)) {
    if (!file.endsWith(".js") || file.startsWith("vendor")) continue;
    const text = readFileSync(join(dir, file), "utf8");
    for (const match of text.matchAll(/createRequire\(import\.meta\.url\)\(\s*["']([@a-z][^"']*)["']\s*\)/g))
      found.add(match[1]);
  }
  return new Set([...found].filter((specifier) => !isBuiltin(specifier)).map(packageOf));
}

describe("@dispatch/server package", function () {
  this.timeout(120_000);
  let metafile: Metafile;
  before(async () => (metafile = await buildServer()));

  it("lists exactly the packages left to Node at run time as its dependencies", () => {
    const { dependencies } = JSON.parse(readFileSync(join(serverDir, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    assert.deepEqual(Object.keys(dependencies).sort(), [...runtimeDependencies].sort());
  });

  it("bundles every other package: the built files hand Node only its dependencies and drivers it never loads", () => {
    const handed = runtimeSpecifiers(metafile, join(serverDir, "dist", "server"));
    assert.ok(handed.has("pg") && handed.has("@electric-sql/pglite"), [...handed].join(", "));
    const allowed = new Set([...runtimeDependencies, ...neverLoaded.map((name) => name.replace(/\/\*$/, ""))]);
    assert.deepEqual(
      [...handed].filter((name) => !allowed.has(name)),
      [],
    );
  });

  it("keeps every server module in its own file, with the bundled packages under vendor/", () => {
    const built = join(serverDir, "dist", "server");
    for (const module of ["main.js", "index.js", "routes/index.js", "db/migrate.js", "db/snapshot.js"])
      assert.ok(readdirSync(join(built, module, "..")).includes(module.split("/").pop() ?? ""), module);
    const routes = readFileSync(join(built, "routes", "index.js"), "utf8");
    assert.doesNotMatch(routes, /@hapi\/hapi|\bknex\b/, "routes/index.js stays our module, not a bundle of packages");
    assert.ok(readdirSync(join(built, "vendor")).length > 0);
  });

  it("ships the licence notices of the bundled packages", () => {
    const notices = readFileSync(join(serverDir, "dist", "THIRD-PARTY-NOTICES.md"), "utf8");
    for (const name of ["@hapi/hapi", "knex", "joi", "hapi-pino"])
      assert.match(notices, new RegExp(`^## ${name} `, "m"));
  });

  it("pins each dependency at the version the workspace root tests with", () => {
    const root = JSON.parse(readFileSync(join(serverDir, "..", "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const server = JSON.parse(readFileSync(join(serverDir, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    for (const [name, version] of Object.entries(server.dependencies))
      assert.equal(version, root.dependencies[name], name);
  });
});
