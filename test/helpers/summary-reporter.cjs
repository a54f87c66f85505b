// Mocha's spec reporter plus one closing line "N passed, N failed[, N skipped]" that CI can read.
const Mocha = require("mocha");

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once("end", () => {
      const { passes, failures, pending } = runner.stats;
      console.log(`${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ""}`);
    });
  }
}

module.exports = SummaryReporter;
