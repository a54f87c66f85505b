// Mocha's spec reporter plus, at the end, the files that took longest (wall time of their top-level suites, hooks
// included: where `npm test`'s time goes) and one closing line "N passed, N failed[, N skipped]" that CI can read.
const Mocha = require("mocha");
const { relative } = require("node:path");

const slowestShown = 20;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const started = new Map();
    const perFile = new Map();
    runner.on("suite", (suite) => {
      if (suite.parent?.root && suite.file) started.set(suite, Date.now());
    });
    runner.on("suite end", (suite) => {
      const at = started.get(suite);
      if (at === undefined) return;
      const file = relative(process.cwd(), suite.file);
      perFile.set(file, (perFile.get(file) ?? 0) + Date.now() - at);
    });
    runner.once("end", () => {
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
