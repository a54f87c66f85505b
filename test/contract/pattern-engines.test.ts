// Every `pattern` in openapi.yaml compiles in engines other than JavaScript's and means the same there: Rust's
// regex (rregex, the crate built to WebAssembly; what Rust validators use) and RE2 as Go reads it (re2js, a port
// of RE2's parser and matcher). A JavaScript-only construct (a `\u` escape, a surrogate range, `\d` matching
// other scripts' digits in Rust) fails here rather than in an integrator's validator.
import assert from "node:assert/strict";
import fc from "fast-check";
import { RE2JS } from "re2js";
import { RRegex } from "rregex";
import { loadContract } from "../../scripts/contract.js";

/** Every string under a `pattern` key in the document (request, response, webhook and component schemas). */
function patternsOf(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) patternsOf(item, found);
  else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      if (key === "pattern" && typeof value === "string") found.add(value);
      else patternsOf(value, found);
    }
  return found;
}

const patterns = [...patternsOf(loadContract())];

/** Text the engines are compared on: edges of the contract's classes (controls, DEL, space, other scripts' digits,
 * astral and combining characters) and typical values. Well-formed only: Rust and Go strings hold no lone surrogate
 * (the server refuses those for every string). */
const corpus = [
  ...["", " ", "a", "a\tb\nc\r", "\u0000", "x\u0008", "\u000B", "\u001F", "\u007F", "\u0080", "\u00A0"],
  ...["𝒜", "中文", "e\u0301", "١٢٣٤٥", "12345", "12345-6789", "٣:٠٠", "09:30", "24:00", "PT2H", "1d2h30m10s"],
  ...["https://hooks.example/x", "http://a b", "https://", "evt_12", "dlv_7", "@42", "seal_" + "ab".repeat(32)],
  ...["2026-11-24T09:30:00Z", "2026-11-24T09:30:00.5+01:00", "America/Chicago", "Etc/GMT+5", "ord_01J", "a.b-c_d"],
];

/** JSON Schema's `pattern`: a match anywhere in the string, under each engine. */
const engines: Record<string, (pattern: string) => (text: string) => boolean> = {
  "JavaScript (u flag)": (p) => {
    const re = new RegExp(p, "u");
    return (text) => re.test(text);
  },
  "JavaScript (no flag)": (p) => {
    const re = new RegExp(p);
    return (text) => re.test(text);
  },
  "Rust regex": (p) => {
    const re = new RRegex(p);
    return (text) => re.isMatch(text);
  },
  "RE2 (Go syntax)": (p) => {
    const re = RE2JS.compile(p);
    return (text) => re.matcher(text).find();
  },
};

describe("contract patterns in other regex engines", () => {
  it("finds the contract's patterns", () => {
    assert.ok(patterns.length >= 15, `${patterns.length} patterns`);
  });

  for (const pattern of patterns)
    describe(pattern.length > 60 ? `${pattern.slice(0, 57)}...` : pattern, () => {
      const compiled: Record<string, (text: string) => boolean> = {};

      for (const [engine, compile] of Object.entries(engines))
        it(`compiles in ${engine}`, () => {
          compiled[engine] = compile(pattern);
        });

      it("accepts and refuses the same strings in every engine", () => {
        const matching = fc.sample(fc.stringMatching(new RegExp(pattern, "u")), { numRuns: 40, seed: 7 });
        const texts = [...corpus, ...matching].filter((t) => !/\p{Cs}/u.test(t));
        for (const text of texts) {
          const answers = Object.entries(compiled).map(([engine, test]) => `${engine}: ${test(text)}`);
          assert.equal(
            new Set(answers.map((a) => a.endsWith("true"))).size,
            1,
            `${JSON.stringify(text)}\n${answers.join("\n")}`,
          );
        }
        assert.equal(Object.keys(compiled).length, Object.keys(engines).length);
      });
    });
});
