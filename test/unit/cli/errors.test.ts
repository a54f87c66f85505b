import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { ExitCode, exitCodeForStatus, exitCodeTableMarkdown, usageError } from "../../../cli/errors.js";
import { buildProgram } from "../../../cli/program.js";

describe("cli errors", () => {
  describe("exitCodeForStatus()", () => {
    const cases: [number, number][] = [
      [401, ExitCode.unauthorized],
      [402, ExitCode.paymentRequired],
      [403, ExitCode.forbidden],
      [404, ExitCode.notFound],
      [409, ExitCode.conflict],
      [429, ExitCode.rateLimited],
      [400, ExitCode.clientError],
      [422, ExitCode.clientError],
      [500, ExitCode.serverError],
      [503, ExitCode.serverError],
      [302, ExitCode.unexpected],
    ];
    for (const [status, code] of cases)
      it(`exits ${code} on HTTP ${status}`, () => {
        assert.equal(exitCodeForStatus(status), code);
      });
  });

  describe("usageError()", () => {
    it("carries the usage exit code", () => {
      assert.equal(usageError("bad flag").exitCode, ExitCode.usage);
    });
  });

  // One exit-code table (exitCodes in cli/errors.ts); cli/README.md and `dispatch --help` show it, not a copy.
  describe("the documented exit codes", () => {
    const codes = Object.values(ExitCode).sort((a, b) => a - b);

    it("cli/README.md's table is exitCodeTableMarkdown(), row for row", () => {
      const readme = readFileSync(new URL("../../../cli/README.md", import.meta.url), "utf8");
      const table = /## Exit codes\n\n((?:\|.*\|\n)+)/.exec(readme)?.[1] ?? "";
      assert.equal(table.trimEnd(), exitCodeTableMarkdown());
    });

    it("names 11 for a cancelled watched order", () => {
      assert.equal(ExitCode.cancelled, 11);
      assert.match(exitCodeTableMarkdown(), /^\| 11 \| `orders watch`: the order ended cancelled \|$/m);
    });

    it("`dispatch --help` names every code", () => {
      let help = "";
      const program = buildProgram("0.0.0", () => Promise.resolve());
      program.configureOutput({ writeOut: (text) => (help += text) });
      program.outputHelp();
      const listed = /Exit codes:([\s\S]*?)Settings:/.exec(help)?.[1] ?? "";
      for (const code of codes) assert.match(listed, new RegExp(`(^|[^\\d])${String(code)} `), `code ${String(code)}`);
    });
  });
});
