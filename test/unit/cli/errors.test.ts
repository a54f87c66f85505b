import { strict as assert } from "node:assert";
import { ExitCode, exitCodeForStatus, usageError } from "../../../cli/errors.js";

describe("cli errors", () => {
  describe("exitCodeForStatus()", () => {
    const cases: [number, number][] = [
      [401, ExitCode.unauthorized],
      [402, ExitCode.paymentRequired],
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
});
