import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeStartSection } from "../../../bench/start.js";

describe("bench/start writeStartSection", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "dispatch-bench-md-"));
    file = join(dir, "BENCHMARKS.md");
    writeFileSync(
      file,
      "# Benchmarks\n\n## Server start (`npm run bench -- --only start`)\n\nold figures\n\n## Later section\n\nkept\n",
    );
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps one block per Node major, newest major first, replacing only the block of the Node that ran", () => {
    writeStartSection(["node 24, first run"], file, "24");
    writeStartSection(["node 20 figures"], file, "20");
    writeStartSection(["node 24, second run"], file, "24");
    const text = readFileSync(file, "utf8");
    assert.doesNotMatch(text, /old figures|first run/);
    assert.ok(text.indexOf("### Node 24") < text.indexOf("### Node 20"), text);
    assert.match(text, /### Node 24\n\nnode 24, second run\n/);
    assert.match(text, /### Node 20\n\nnode 20 figures\n/);
    assert.match(text, /^# Benchmarks\n/);
    assert.match(text, /\n## Later section\n\nkept\n$/);
    assert.equal(text.match(/## Server start/g)?.length, 1);
  });
});
