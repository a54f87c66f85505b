// The duration of a sandbox clock's advance (`by`): ISO 8601 day-time durations and the short form, at most 30 days.
import assert from "node:assert/strict";
import { durationMs, maxAdvanceMs } from "../../../../server/services/sandbox/duration.js";
import { DomainError } from "../../../../server/services/errors.js";
import { readContract } from "../../../../server/contract.js";

const minute = 60_000;
const hour = 60 * minute;

describe("sandbox duration", () => {
  describe("durationMs()", () => {
    const cases: [string, number][] = [
      ["2h", 2 * hour],
      ["PT2H", 2 * hour],
      ["0s", 0],
      ["PT0S", 0],
      ["90m", 90 * minute],
      ["1d2h30m10s", 26.5 * hour + 10_000],
      ["P1DT2H30M10S", 26.5 * hour + 10_000],
      ["P1D", 24 * hour],
      ["30d", maxAdvanceMs],
      ["P30D", maxAdvanceMs],
      ["2592000s", maxAdvanceMs],
    ];
    for (const [text, ms] of cases)
      it(`reads ${text} as ${ms} ms`, () => {
        assert.equal(durationMs(text), ms);
      });

    for (const text of ["31d", "P31D", "721h", "PT721H", "2592001s"])
      it(`refuses ${text}, over 30 days, as a 422 on /by`, () => {
        assert.throws(
          () => durationMs(text),
          (error) => error instanceof DomainError && error.code === "validation_failed" && error.kind === "validation",
        );
      });
  });

  describe("the contract's pattern", () => {
    interface Variant {
      properties: { by?: { pattern: string } };
    }
    type Schemas = Record<string, { oneOf: Variant[] }>;
    const { components } = readContract() as unknown as { components: { schemas: Schemas } };
    const by = components.schemas.SandboxClockAdvanceRequest.oneOf.find((v) => v.properties.by)!.properties.by!;
    const pattern = new RegExp(by.pattern, "u");
    for (const text of ["2h", "PT2H", "P1DT30M", "1d30m", "0s"])
      it(`admits ${text}, which durationMs reads`, () => {
        assert.ok(pattern.test(text));
        assert.doesNotThrow(() => durationMs(text));
      });
    for (const text of ["", "P", "PT", "2", "h", "-2h", "1.5h", "2H", "P1M", "P1Y", "2 hours", "2h 30m", "T2H"])
      it(`refuses ${JSON.stringify(text)}`, () => {
        assert.equal(pattern.test(text), false);
      });
  });
});
