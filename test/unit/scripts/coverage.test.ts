// `npm run coverage` (README's set-up table and docs/architecture.md) is c8 over mocha: run its exact command on one small suite and check
// that it reports coverage and writes the HTML report. `npm test` runs the same suites under c8 with a floor: its
// command line is run with npm and c8 stubbed, so what it runs, in which order and on whose failure is observed.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { globSync } from "tinyglobby";

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

/**
 * Runs a package.json script's command line with sh, as npm does, but with npm and c8 replaced by stubs that record
 * their arguments (one line each) and exit with the given codes.
 */
function runWithStubs(
  script: string,
  exits: Partial<Record<"npm" | "c8" | "mocha", number>>,
): { status: number | null; lines: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "dispatch-script-"));
  try {
    const calls = join(dir, "calls");
    for (const [name, exit] of Object.entries(exits))
      writeFileSync(
        join(dir, name),
        `#!/bin/sh\necho "\${DISPATCH_TEST_NOW:+DISPATCH_TEST_NOW=$DISPATCH_TEST_NOW }${name} $*" >> "${calls}"\nexit ${exit}\n`,
        { mode: 0o755 },
      );
    const run = spawnSync("sh", ["-c", script], { cwd: root, env: { PATH: `${dir}:/usr/bin:/bin` } });
    const lines = existsSync(calls) ? readFileSync(calls, "utf8").trim().split("\n") : [];
    return { status: run.status, lines };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A mocha command line's spec globs, --ignore globs and whether it runs in parallel (its other options skipped). */
function mochaArguments(line: string): { globs: string[]; ignored: string[]; parallel: boolean } {
  const [command, ...words] = line.split(" ");
  assert.equal(command, "mocha");
  const globs: string[] = [];
  const ignored: string[] = [];
  let parallel = false;
  for (let i = 0; i < words.length; i++) {
    if (words[i] === "--ignore") ignored.push(words[++i]);
    else if (words[i] === "--jobs") i++;
    else if (words[i] === "--parallel") parallel = true;
    else globs.push(words[i]);
  }
  return { globs, ignored, parallel };
}

describe("npm run coverage", function () {
  this.timeout(180_000);

  it("is what npm test runs the whole suite under, last and after the gates, and fails npm test when it fails", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
    const c8Calls = (c8Exit: number, npmExit = 0) => {
      const calls = runWithStubs(pkg.scripts.test, { c8: c8Exit, npm: npmExit });
      return { ...calls, c8: calls.lines.filter((line) => line.startsWith("c8 ")) };
    };
    const passing = c8Calls(0);
    assert.equal(passing.status, 0);
    assert.ok(passing.lines.length > 1 && passing.lines[0].startsWith("npm "), "gates run first");
    assert.deepEqual(passing.c8, ["c8 npm run test:suites"], "one c8 run, over the suites");
    assert.equal(passing.lines.at(-1), passing.c8[0], "c8 runs last");
    assert.notEqual(c8Calls(1).status, 0, "a failing suite (or coverage floor) fails npm test");
    assert.deepEqual(c8Calls(0, 1).c8, [], "a failing gate stops npm test before the suite");
  });

  it("runs the parallel suites, then the serial ones, then the instants, and fails when one fails", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
    const passing = runWithStubs(pkg.scripts["test:suites"], { npm: 0 });
    assert.equal(passing.status, 0);
    assert.deepEqual(passing.lines, ["npm run test:parallel", "npm run test:serial", "npm run test:instants"]);
    const failing = runWithStubs(pkg.scripts["test:suites"], { npm: 1 });
    assert.notEqual(failing.status, 0);
    for (const script of ["test:parallel", "test:serial", "test:instants"])
      assert.notEqual(runWithStubs(pkg.scripts[script], { mocha: 1 }).status, 0, `${script} fails with mocha`);
  });

  it("runs the sandbox, quote and scenario suites again at a Saturday evening, a Monday morning and both DST changes", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
    const { status, lines } = runWithStubs(pkg.scripts["test:instants"], { mocha: 0 });
    assert.equal(status, 0);
    const instants = lines.map((line) => /^DISPATCH_TEST_NOW=(\S+) mocha /.exec(line)?.[1]);
    const local = (at: string | undefined) => {
      const date = new Date(Date.parse(at!) + Number(at!.slice(-6, -3)) * 3_600_000); // the instant's own offset
      return { day: date.getUTCDay(), hour: date.getUTCHours() };
    };
    assert.ok(
      instants.some((at) => local(at).day === 6 && local(at).hour >= 17),
      "a Saturday evening",
    );
    assert.ok(
      instants.some((at) => local(at).day === 1 && local(at).hour < 10),
      "a Monday morning",
    );
    for (const change of ["2027-03-14", "2027-11-07"])
      assert.ok(
        instants.some((at) => at?.startsWith(change)),
        `the DST change of ${change}`,
      );
    for (const line of lines) {
      const files = new Set(mochaArguments(line.replace(/^\S+ /, "")).globs);
      for (const suite of ["sandbox-scenarios", "sandbox-clock", "orders-quote", "core-quote"])
        assert.ok(files.has(`test/integration/${suite}.test.ts`), `${suite} at ${line}`);
    }
  });

  it("runs every test file exactly once between the two, the timing-sensitive and building ones serially", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
    const filesOf = (script: string) => {
      const { lines } = runWithStubs(pkg.scripts[script], { mocha: 0 });
      assert.equal(lines.length, 1, lines.join("\n"));
      const { globs, ignored, parallel } = mochaArguments(lines[0]);
      const files = new Set(globs.flatMap((glob) => globSync(glob, { cwd: root })));
      for (const file of ignored.flatMap((glob) => globSync(glob, { cwd: root }))) files.delete(file);
      return { files, parallel };
    };
    const parallel = filesOf("test:parallel");
    const serial = filesOf("test:serial");
    assert.ok(parallel.parallel && !serial.parallel);
    const every = globSync("test/**/*.test.ts", { cwd: root });
    assert.deepEqual([...parallel.files, ...serial.files].sort(), [...every].sort(), "each file once");
    for (const file of serial.files) assert.match(file, /^test\/(faults|packaging)\/|^test\/cli\/watch-steps/);
    assert.ok(serial.files.has("test/faults/webhook-fairness.test.ts"));
  });

  it("keeps a coverage floor and leaves generated code and bundles out", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
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
      // its own temp directory too: c8 empties coverage/tmp at start, which `npm test`'s own c8 is writing to
      .replace("--reports-dir=coverage", `--reports-dir=${reports} --temp-directory=${join(reports, "tmp")}`)
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
