// npm (11.16 on) warns about dependencies whose install scripts package.json's `allowScripts` does not cover, and
// npm 12 will not run them: every locked package with an install script is declared there, and only esbuild's runs
// (it puts the platform's esbuild binary in place, which the server's build needs). The others print banners
// (core-js, es5-ext) or install a source checkout's clients, which a dependency skips (@modelcontextprotocol/inspector).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../helpers/server-process.js";

const readJson = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8")) as unknown;

describe("install scripts", () => {
  it("declares every locked package with an install script in allowScripts, allowing esbuild's alone", () => {
    const lock = readJson("package-lock.json") as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length))
      .sort();
    const { allowScripts = {} } = readJson("package.json") as { allowScripts?: Record<string, boolean> };
    const declared = Object.keys(allowScripts).map((key) => key.replace(/(?<=.)@[^@/]*$/, "")); // name@version → name
    assert.deepEqual([...new Set(declared)].sort(), withScripts);
    assert.deepEqual(
      Object.entries(allowScripts)
        .filter(([, allowed]) => allowed)
        .map(([key]) => key),
      ["esbuild"],
    );
  });
});
