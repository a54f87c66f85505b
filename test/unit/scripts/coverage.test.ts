// `npm run coverage` (README's set-up table) is c8 over mocha: run its exact command on one small suite and check
// that it reports coverage and writes the HTML report. `npm test` runs the same suites under c8 with a floor.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

interface PackageJson {
  scripts: Record<string, string>;
  c8: {
    include: string[];
    exclude: string[];
    "check-coverage": boolean;
    lines: number;
    branches: number;
    functions: number;
  };
}

describe("npm run coverage", function () {
  this.timeout(180_000);

  it("is what npm test runs mocha under, with a floor and generated code and bundles left out", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
    assert.match(pkg.scripts.test, / && c8 mocha 'test\/\*\*\/\*\.test\.ts'$/);
    assert.equal(pkg.c8["check-coverage"], true);
    for (const metric of [pkg.c8.lines, pkg.c8.branches, pkg.c8.functions]) assert.ok(metric > 50, String(metric));
    assert.deepEqual(pkg.c8.include, ["server/**", "cli/**", "sdk/**"]);
    assert.deepEqual(pkg.c8.exclude, ["**/generated/**", "**/dist/**"]);
  });

  it("runs mocha under c8 and reports the covered server code", () => {
    const script = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> })
      .scripts.coverage;
    assert.match(script, /^c8 .* mocha 'test\/\*\*\/\*\.test\.ts'$/);
    const reports = mkdtempSync(join(tmpdir(), "dispatch-coverage-"));
    const command = script
      .replace("--reports-dir=coverage", `--reports-dir=${reports}`)
      .replace("'test/**/*.test.ts'", "test/unit/server/background-job.test.ts");
    const out = execFileSync("sh", ["-c", `PATH="${root}node_modules/.bin:$PATH" ${command}`], {
      cwd: root,
      encoding: "utf8",
    });
    const statements = Number(/Statements\s*:\s*([\d.]+)%/.exec(out)?.[1]);
    assert.ok(statements > 0, out);
    assert.ok(existsSync(join(reports, "index.html")), "HTML report written");
  });
});
