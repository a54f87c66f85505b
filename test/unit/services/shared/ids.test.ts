import { strict as assert } from "node:assert";
import { canonicalJson, maskRef, newId, randomBase62 } from "../../../../server/services/shared/ids.js";

describe("ids", () => {
  describe("canonicalJson()", () => {
    const cases: [string, unknown, string][] = [
      ["sorts object keys", { b: 1, a: 2 }, '{"a":2,"b":1}'],
      ["sorts nested keys", { z: { y: 1, x: [{ d: 1, c: 2 }] } }, '{"z":{"x":[{"c":2,"d":1}],"y":1}}'],
      ["drops undefined members", { a: undefined, b: null }, '{"b":null}'],
      ["keeps array order", [3, 1, 2], "[3,1,2]"],
      ["encodes scalars as JSON", 'x"y', '"x\\"y"'],
    ];
    for (const [name, value, text] of cases)
      it(name, () => {
        assert.equal(canonicalJson(value), text);
      });

    it("gives equal objects with different key order the same text", () => {
      assert.equal(canonicalJson({ a: 1, b: { c: 2, d: 3 } }), canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
    });
  });

  describe("newId()", () => {
    it("is the prefix, an underscore and 26 Crockford base32 characters", () => {
      assert.match(newId("ord"), /^ord_[0-9A-HJKMNP-TV-Z]{26}$/);
    });

    it("sorts ids of later milliseconds after earlier ones by their time part", () => {
      const first = newId("x").slice(2, 12);
      const later = new Date(Date.now() + 1);
      while (Date.now() < later.getTime()); // bounded: waits at most ~1 ms for the clock to tick
      assert.ok(newId("x").slice(2, 12) > first);
    });

    it("never repeats a random part across refills of the random pool (10,000 ids, 40 refills)", () => {
      const parts = new Set(Array.from({ length: 10_000 }, () => newId("x").slice(12)));
      assert.equal(parts.size, 10_000);
    });

    it("uses every base32 character about equally often (within 15% over 160,000 draws)", () => {
      const counts = new Map<string, number>();
      for (let i = 0; i < 10_000; i++) for (const c of newId("x").slice(12)) counts.set(c, (counts.get(c) ?? 0) + 1);
      assert.equal(counts.size, 32);
      for (const n of counts.values()) assert.ok(Math.abs(n - 5000) < 750, `a character was drawn ${n} times`);
    });
  });

  describe("randomBase62()", () => {
    it("returns exactly the requested number of base62 characters", () => {
      assert.match(randomBase62(43), /^[0-9A-Za-z]{43}$/);
    });
  });

  describe("maskRef()", () => {
    it("hides the contractor id behind four hash characters, stable per id", () => {
      assert.match(maskRef("ctr_1"), /^ctr_\*{4}[0-9a-f]{4}$/);
      assert.equal(maskRef("ctr_1"), maskRef("ctr_1"));
    });
  });
});
