// Module headers stay short: the leading `//` block of every source in server/, cli/, sdk/, scripts/ and bench/
// says what the module is and why in at most five lines (after a shebang, if any); the reasons at length and the
// measured figures live in docs/decisions.md. A module without a header (a thin route file) passes.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "../..");
const maxHeaderLines = 5;
const sources = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter(
    (file) =>
      /^(server|cli|sdk|scripts|bench)\//.test(file) &&
      /\.(ts|js|cjs|mjs)$/.test(file) &&
      !/(^|\/)(generated|dist)\//.test(file),
  );

/** The number of lines of the leading `//` block of `text`, a shebang line skipped. */
function headerLines(text: string): number {
  const lines = text.split("\n");
  let at = lines[0]?.startsWith("#!") ? 1 : 0;
  const start = at;
  while (at < lines.length && lines[at].trimStart().startsWith("//")) at++;
  return at - start;
}

describe("module headers", () => {
  it(`are at most ${String(maxHeaderLines)} lines (server, cli, sdk, scripts, bench)`, () => {
    assert.ok(sources.length > 100, `scanned ${String(sources.length)} files`);
    const long = sources
      .map((file) => ({ file, lines: headerLines(readFileSync(join(root, file), "utf8")) }))
      .filter(({ lines }) => lines > maxHeaderLines)
      .map(({ file, lines }) => `${file}: ${String(lines)} lines`);
    assert.deepEqual(long, []);
  });

  it("are measured: a header that grows back is found", () => {
    const header = (lines: number) => Array.from({ length: lines }, (_, i) => `// line ${String(i)}`).join("\n");
    assert.equal(headerLines(`${header(5)}\nimport x from "y";\n`), 5);
    assert.equal(headerLines(`#!/usr/bin/env node\n${header(6)}\n"use strict";\n`), 6);
    assert.equal(headerLines(`import x from "y";\n// not a header\n`), 0);
    assert.ok(headerLines(`${header(6)}\nexport {};\n`) > maxHeaderLines);
  });
});
