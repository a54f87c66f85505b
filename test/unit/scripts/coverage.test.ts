// `npm run coverage` (README's set-up table) is c8 over mocha: run its exact command on one small suite and check
// that it reports coverage and writes the HTML report.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

describe("npm run coverage", function () {
  this.timeout(180_000);

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
