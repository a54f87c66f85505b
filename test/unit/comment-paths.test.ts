// Every file a comment names exists: comments in server/, cli/, sdk/, scripts/, test/ and bench/ are scanned for
// paths (a name with a source or document extension) and each must resolve beside the file, from the repository
// root, or as the tail of a tracked file's path (`orders/state.ts`).
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { scanComments } from "../../scripts/comments.js";

const root = join(import.meta.dirname, "../..");
const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter(Boolean);
const trackedSet = new Set(tracked);
const sources = tracked.filter(
  (file) =>
    /^(server|cli|sdk|scripts|test|bench)\//.test(file) &&
    /\.(ts|js|cjs|mjs)$/.test(file) &&
    !/\/(generated|dist)\//.test(file),
);
/** A path as comments write it: word characters, dots, dashes and slashes, ending in a known extension (a glob's
 * fragments, as in `*-pack*.test.ts`, are not names). */
const pathPattern = /(?<![\w@:/.*-])((?:\.{1,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.(?:ts|js|cjs|mjs|md|ya?ml|json))(?![\w/-])/g;

/** Names that are not repository files: build outputs (dist/, the built contract), a package, a user's file, and
 * what a test's tool writes in a temporary directory (the MCP conformance suite's checks, a generated client's use). */
const notInRepository = [
  /(^|\/)dist\//,
  /^openapi\.json$/,
  /^ipaddr\.js$/,
  /^attest\.json$/,
  /^checks\.json$/,
  /^use\.ts$/,
];

/** Whether the named file exists for a comment in `file`. */
function exists(file: string, named: string): boolean {
  if (notInRepository.some((pattern) => pattern.test(named))) return true;
  const beside = normalize(join(dirname(file), named));
  if (trackedSet.has(beside) || trackedSet.has(beside.replace(/\.js$/, ".ts")) || trackedSet.has(normalize(named)))
    return true;
  const tail = `/${named.replace(/^(\.{1,2}\/)+/, "")}`;
  return tracked.some((path) => `/${path}`.endsWith(tail) || `/${path}`.endsWith(tail.replace(/\.js$/, ".ts")));
}

/** The paths the comments of `file` name that do not exist, as `file:line name`. */
function missingIn(file: string): string[] {
  const { comments } = scanComments(readFileSync(join(root, file), "utf8"));
  const missing: string[] = [];
  for (const comment of comments)
    for (const [, named] of comment.text.matchAll(pathPattern))
      if (!/^https?:/.test(named) && !exists(file, named)) missing.push(`${file}:${comment.from} ${named}`);
  return missing;
}

describe("comments", () => {
  it("name only files that exist (server, cli, sdk, scripts, test, bench)", () => {
    assert.ok(sources.length > 100, `scanned ${sources.length} files`);
    assert.deepEqual(sources.flatMap(missingIn), []);
  });

  it("are checked: a missing file is found", () => {
    assert.equal(exists("server/services/dispatch/orders/state.ts", "move-status.ts"), true);
    assert.equal(exists("server/services/dispatch/orders/state.ts", "orders/no-such-file.ts"), false);
  });
});
