import assert from "node:assert/strict";
import Joi from "joi";
import { fieldErrors } from "../../../../server/services/shared/field-errors.js";

describe("field errors", () => {
  describe("fieldErrors()", () => {
    const schema = Joi.object({ location: Joi.object({ state: Joi.string().length(2) }), limit: Joi.number().max(9) });
    const { error } = schema.validate({ location: { state: "CAL" }, limit: 10 }, { abortEarly: false });
    const cases: [string, string | undefined, string[]][] = [
      ["the body (no prefix)", undefined, ["/location/state", "/limit"]],
      ["the body (empty prefix)", "", ["/location/state", "/limit"]],
      ["the query", "#/query", ["#/query/location/state", "#/query/limit"]],
      ["the path", "#/path", ["#/path/location/state", "#/path/limit"]],
    ];
    for (const [name, prefix, pointers] of cases)
      it(`points into ${name}`, () => {
        const errors = fieldErrors(error!, prefix);
        assert.deepEqual(
          errors.map((e) => e.pointer),
          pointers,
        );
        assert.deepEqual(
          errors.map((e) => e.message),
          error!.details.map((d) => d.message),
        );
      });
  });
});
