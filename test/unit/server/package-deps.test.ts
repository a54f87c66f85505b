// The built server keeps its bare imports as imports: every one must be a dependency of @dispatch/server, or the
// installed package fails at the first request that loads the module.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildServer } from "../../../server/build.js";

const serverDir = fileURLToPath(new URL("../../../server/", import.meta.url));
const packageOf = (specifier: string) => specifier.split("/", specifier.startsWith("@") ? 2 : 1).join("/");

/** Bare specifiers of the static and dynamic imports in esbuild's output (which prints them in these two forms). */
function externalImports(dir: string): Set<string> {
  const found = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true }).map(String)) {
    if (!file.endsWith(".js")) continue;
    const text = readFileSync(join(dir, file), "utf8");
    const imports =
      /\bfrom\s*["']([@a-z][^"']*)["']|^import\s*["']([@a-z][^"']*)["']|\bimport\(\s*["']([@a-z][^"']*)["']\s*\)/gm;
    for (const match of text.matchAll(imports)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (!isBuiltin(specifier)) found.add(packageOf(specifier));
    }
  }
  return found;
}

describe("@dispatch/server package", function () {
  this.timeout(120_000);
  before(() => buildServer());

  it("lists every package the built server imports as a dependency", () => {
    const { dependencies } = JSON.parse(readFileSync(join(serverDir, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const imported = externalImports(join(serverDir, "dist", "server"));
    assert.ok(imported.has("@hapi/hapi") && imported.has("knex"), [...imported].join(", "));
    const missing = [...imported].filter((name) => !(name in dependencies));
    assert.deepEqual(missing, []);
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
