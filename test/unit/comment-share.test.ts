// The comment share of service lines (comment-only lines over non-blank lines in server/services), as
// scripts/structure.ts measures it, stays at or under the bound: headers state what and why, rationale and
// measured figures live in docs/decisions.md.
import { strict as assert } from "node:assert";
import { measure } from "../../scripts/structure.js";

describe("comment share of server/services", () => {
  it("is at most 10 %", () => {
    const { commentShareServices } = measure();
    assert.ok(commentShareServices > 0, "nothing measured");
    assert.ok(commentShareServices <= 10, `comment share of server/services is ${commentShareServices} %`);
  });
});
