// The joi generated from the contract keeps JSON Schema's meaning (scripts/joi-validators.ts).
import assert from "node:assert/strict";
import { joiOf } from "../../../scripts/joi-validators.js";
import { validators } from "../../../server/generated/validators.js";

const quote = { trade: "plumbing", location: { state: "TX" } };
const accepts = (value: unknown) => validators.createQuote.payload.validate(value).error === undefined;

describe("joi validators", () => {
  describe("generated createQuote payload", () => {
    const cases: [string, unknown, boolean][] = [
      ["an empty description (no minLength)", { ...quote, description: "" }, true],
      [
        "2000 astral characters (maxLength counts code points)",
        { ...quote, description: "\u{1D49C}".repeat(2000) },
        true,
      ],
      ["2001 characters", { ...quote, description: "x".repeat(2001) }, false],
      ["combining characters and line breaks", { ...quote, description: "cafe\u0301\nline\ttab" }, true],
      ["a NUL", { ...quote, description: "a\u0000" }, false],
      ["a lone surrogate", { ...quote, description: "a\udc00" }, false],
      ["state ZZ", { ...quote, location: { state: "ZZ" } }, false],
      ["state tx (lower case)", { ...quote, location: { state: "tx" } }, false],
      ["an empty zip (the pattern refuses it)", { ...quote, location: { state: "TX", zip: "" } }, false],
      ["ZIP+4", { ...quote, location: { state: "TX", zip: "78701-1234" } }, true],
      ["nte_cents at its maximum", { ...quote, nte_cents: 100000000 }, true],
      ["nte_cents above its maximum", { ...quote, nte_cents: 100000001 }, false],
      ["an unknown property (additionalProperties: false)", { ...quote, extra: 1 }, false],
      ['nte_cents "45000" (a JSON body is not converted)', { ...quote, nte_cents: "45000" }, false],
      ['nte_cents " 45000 "', { ...quote, nte_cents: " 45000 " }, false],
    ];
    for (const [label, value, ok] of cases)
      it(`${ok ? "accepts" : "refuses"} ${label}`, () => {
        assert.equal(accepts(value), ok);
      });
  });

  describe("conversion and URLs", () => {
    it("still converts query strings (limit=5)", () => {
      const query = validators.listOrders.query.validate({ limit: "5" });
      assert.equal(query.error, undefined);
      assert.equal((query.value as { limit: number }).limit, 5);
    });
    for (const url of ["http://x:99999/", "http://%zz/", "http://a%00b/", "http://127.0.0.1%2509:4250/"])
      it(`refuses the callback_url ${url}, which new URL refuses`, () => {
        const order = { ...quote, description: "Leak.", callback_url: url };
        const { error } = validators.createOrder.payload.validate(order);
        assert.deepEqual(
          error?.details.map((d) => d.path.join("/")),
          ["callback_url"],
        );
      });
  });

  describe("joiOf()", () => {
    it("lets an object without additionalProperties: false carry unknown keys", () => {
      assert.match(joiOf({ type: "object", properties: {} }), /\.unknown\(true\)$/);
    });
    it("fills defaults and allows null for nullable types", () => {
      assert.equal(joiOf({ type: ["integer", "null"], default: 3 }), "Joi.number().integer().allow(null).default(3)");
      // Request fields state their server default as x-default (generators make `default` fields required).
      assert.equal(joiOf({ type: "boolean", "x-default": false }), "Joi.boolean().default(false)");
    });
  });
});
