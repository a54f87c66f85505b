import assert from "node:assert/strict";
import { isRecord } from "../../../../server/services/shared/is-record.js";
import { parseStoredJson } from "../../../../server/services/shared/parse-json.js";

describe("stored JSON", () => {
  describe("parseStoredJson()", () => {
    const cases: [string, string, { value: unknown } | undefined][] = [
      ["an object", '{"a":1}', { value: { a: 1 } }],
      ["null (a value, not a failure)", "null", { value: null }],
      ["a string", '"x"', { value: "x" }],
      ["tampered text", '{"a":1', undefined],
      ["empty text", "", undefined],
    ];
    for (const [name, text, expected] of cases)
      it(`parses ${name}`, () => {
        assert.deepEqual(parseStoredJson(text), expected);
      });
  });

  describe("isRecord()", () => {
    const cases: [string, unknown, boolean][] = [
      ["an object", { a: 1 }, true],
      ["an empty object", {}, true],
      ["null", null, false],
      ["an array", [1], false],
      ["a string", "a", false],
      ["a number", 1, false],
      ["undefined", undefined, false],
    ];
    for (const [name, value, expected] of cases)
      it(`answers ${String(expected)} for ${name}`, () => {
        assert.equal(isRecord(value), expected);
      });
  });
});
