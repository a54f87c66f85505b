// A configuration variable is defined once (server/config.ts); the table in docs/operating.md and
// `dispatch-server start --help` are derived from that definition by server/config-variables.ts.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import Joi from "joi";
import { configTableFile, renderConfigTable } from "../../../scripts/config-table.js";
import { schema, variables } from "../../../server/config.js";
import {
  defaultOf,
  flag,
  group,
  helpTexts,
  markdownTable,
  number,
  optionalPort,
  optionalText,
  rowsOf,
  text,
} from "../../../server/config-variables.js";

const guide = readFileSync(new URL(`../../../${configTableFile}`, import.meta.url), "utf8");

describe("configuration variables", () => {
  describe("server/config.ts's definition", () => {
    it("names each variable once, and the schema validates exactly those", () => {
      const names = variables.map((each) => each.name);
      assert.ok(names.length > 30);
      assert.equal(new Set(names).size, names.length);
      assert.deepEqual(
        Object.keys((schema.describe() as { keys: Record<string, unknown> }).keys).sort(),
        [...names].sort(),
      );
    });

    it("is the operating guide's table between its markers (`npm run generate` writes it)", () => {
      assert.equal(renderConfigTable(guide), guide);
      assert.ok(guide.includes(`\n${markdownTable(variables)}\n`));
    });
  });

  describe("defaultOf()", () => {
    const cases = [
      { what: "a string default, in backticks", variable: text("A", Joi.string().default("x"), {}), shown: "`x`" },
      { what: "a number default", variable: number("B", Joi.number().default(10_000), {}), shown: "`10000`" },
      { what: "a boolean default", variable: flag("C", false, {}), shown: "`false`" },
      { what: "no default", variable: optionalText("D", Joi.string(), {}), shown: "unset" },
      {
        what: "the table's own words",
        variable: optionalPort("E", { shown: "request origin" }),
        shown: "request origin",
      },
    ];
    for (const { what, variable, shown } of cases)
      it(`shows ${what} as ${shown}`, () => {
        assert.equal(defaultOf(variable), shown);
      });
  });

  describe("rowsOf() and helpTexts()", () => {
    const a = text("A", Joi.string().default("a"), { meaning: "`A` and B" });
    const b = optionalText("B", Joi.string(), {});
    const c = flag("C", true, { meaning: "c" });

    it("puts a variable without a meaning in the row before it, which gives it its meaning", () => {
      assert.deepEqual(
        rowsOf([a, b, c]).map((row) => [row.variables.map((each) => each.name), row.meaning]),
        [
          [["A", "B"], "`A` and B"],
          [["C"], "c"],
        ],
      );
      assert.deepEqual(
        helpTexts([a, b, c]).map(({ help }) => help),
        ["A: A and B (default a)", "B: A and B", "C: c (default true)"],
      );
    });

    it("refuses a first variable without a meaning", () => {
      assert.throws(() => rowsOf([b]), /^Error: B: the first variable needs a meaning$/);
    });
  });

  describe("group()", () => {
    it("reads its members into one value, combined when asked", () => {
      const members = { port: optionalPort("P", {}), host: text("H", Joi.string().default("h"), {}) };
      const plain = group(members);
      const combined = group(members, ({ port, host }) => (port === null ? null : `${host}:${port}`));
      assert.deepEqual(
        plain.variables.map((each) => each.name),
        ["P", "H"],
      );
      assert.deepEqual(plain.read({ P: 80, H: "h" }), { port: 80, host: "h" });
      assert.equal(combined.read({ P: 80, H: "h" }), "h:80");
      assert.equal(combined.read({ P: "", H: "h" }), null);
    });
  });
});
