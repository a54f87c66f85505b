// Mocha's spec reporter plus, at the end, the files that took longest (wall time of each file, hooks included:
// where `npm test`'s time goes) and one closing line "N passed, N failed[, N skipped]" that CI can read.
// The times come from the leak-check root hook (test/helpers/leak-check.ts), which runs where each file runs: in
// a parallel run the reporter only sees the workers' events replayed at the end of each file, so it cannot time
// them itself. It names the file they are appended to (MOCHA_FILE_TIMES) before mocha starts any worker, which
// inherit it.
const Mocha = require("mocha");
const { existsSync, mkdtempSync, readFileSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join, relative } = require("node:path");

const slowestShown = 20;

/** The recorded times, summed per file (a file whose tests a retry ran twice counts both). */
function readTimes(path) {
  const perFile = new Map();
  if (!existsSync(path)) return perFile;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line) continue;
    const { file, ms } = JSON.parse(line);
    const name = relative(process.cwd(), file);
    perFile.set(name, (perFile.get(name) ?? 0) + ms);
  }
  return perFile;
}

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const dir = mkdtempSync(join(tmpdir(), "dispatch-mocha-times-"));
    process.env.MOCHA_FILE_TIMES = join(dir, "times.jsonl");
    runner.once("end", () => {
      const perFile = readTimes(process.env.MOCHA_FILE_TIMES);
      rmSync(dir, { recursive: true, force: true });
      const files = [...perFile].sort((a, b) => b[1] - a[1]);
      const total = files.reduce((sum, [, ms]) => sum + ms, 0);
      console.log(`\nSlowest files (of ${files.length}, ${(total / 60000).toFixed(1)} min in all):`);
      for (const [file, ms] of files.slice(0, slowestShown))
        console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
      const { passes, failures, pending } = runner.stats;
      console.log(`${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ""}`);
    });
  }
}

module.exports = SummaryReporter;
