// Every link in README.md, the guides in docs/ and BENCHMARKS.md leads somewhere: relative files exist and #anchors
// name a heading as GitHub slugs it; README links every guide.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { anchorsOf, brokenLinks, linksOf } from "../../helpers/markdown-links.js";
import { root } from "../../helpers/server-process.js";

const guides = readdirSync(join(root, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => `docs/${name}`);

describe("links in README.md and docs/", () => {
  for (const path of ["README.md", ...guides, "BENCHMARKS.md"])
    it(`${path}: every relative link and anchor resolves`, () => {
      assert.deepEqual(brokenLinks(root, path), []);
    });

  it("README links every guide in docs/", () => {
    const linked = new Set(linksOf(readFileSync(join(root, "README.md"), "utf8")).map((href) => href.split("#")[0]));
    assert.ok(guides.length >= 8, guides.join(", "));
    assert.deepEqual(
      guides.filter((guide) => !linked.has(guide)),
      [],
    );
  });

  it("BENCHMARKS.md links the decisions document", () => {
    const links = linksOf(readFileSync(join(root, "BENCHMARKS.md"), "utf8"));
    assert.ok(links.some((href) => href.split("#")[0] === "docs/decisions.md"));
  });

  describe("anchorsOf()", () => {
    it("slugs headings as GitHub does: code kept, punctuation dropped, duplicates numbered", () => {
      const markdown = [
        "# Test your integration in CI: the sandbox",
        "## Server start (`npm run bench -- --only start`)",
        "## **Stopping** (drain)",
        "## Stopping (drain)",
        "```md\n## not a heading\n```",
      ].join("\n\n");
      assert.deepEqual(anchorsOf(markdown), [
        "test-your-integration-in-ci-the-sandbox",
        "server-start-npm-run-bench------only-start",
        "stopping-drain",
        "stopping-drain-1",
      ]);
    });
  });

  describe("brokenLinks()", () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), "dispatch-links-"));
      writeFileSync(join(dir, "a.md"), "# A\n\n## Here\n");
      const links = "[ok](a.md#here) [no anchor](a.md#there) [no file](b.md) [self](#top) [web](https://x.example)";
      writeFileSync(join(dir, "index.md"), `# Top\n\n${links}\n\n\`[code](c.md)\`\n`);
    });
    after(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it("names a missing anchor and a missing file, and nothing in code or on another site", () => {
      assert.deepEqual(brokenLinks(dir, "index.md"), [
        "index.md: a.md#there: no heading with that anchor",
        "index.md: b.md: no b.md",
      ]);
    });
  });
});
