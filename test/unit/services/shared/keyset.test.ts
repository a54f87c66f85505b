// Keyset pages: both keys (created_at+id, position) share the cursor encoding and the one bad-cursor error.
import assert from "node:assert/strict";
import knex from "knex";
import { DomainError } from "../../../../server/services/errors.js";
import { newestByPosition, newestFirst, pageByPosition, pageOf } from "../../../../server/services/shared/keyset.js";

// Builds SQL only: knex connects lazily, and toSQL() never does.
const db = knex({ client: "pg" });
after(() => db.destroy());

const b64 = (text: string) => Buffer.from(text).toString("base64url");
const badCursor = {
  name: "DomainError",
  kind: "validation",
  code: "validation_failed",
  extra: {
    errors: [{ pointer: "#/query/cursor", message: '"cursor" is not a cursor this API returned.' }],
  },
};

describe("keyset pages", () => {
  describe("a foreign cursor", () => {
    // [what, key, cursor text before base64url]
    const cases: [string, "row" | "position", string][] = [
      ["row key: not at|id", "row", "nope"],
      ["row key: a bad date", "row", "yesterday|ord_1"],
      ["row key: an id of another list", "row", "2026-11-23T15:00:00.000Z|dlv_1"],
      ["position key: not p<n>", "position", "x12"],
      ["position key: p0", "position", "p0"],
      ["position key: a row cursor", "position", "2026-11-23T15:00:00.000Z|ord_1"],
    ];
    const build = (key: "row" | "position", cursor: string) =>
      key === "row"
        ? newestFirst(db("orders"), { limit: 2, cursor }, /^ord_/)
        : newestByPosition(db("audit_records"), { limit: 2, cursor }, "position");
    for (const [name, key, text] of cases)
      it(`is one 422 at #/query/cursor (${name})`, () => {
        assert.throws(
          () => build(key, b64(text)),
          (error: unknown) => {
            assert.ok(error instanceof DomainError);
            assert.deepEqual({ name: error.name, kind: error.kind, code: error.code, extra: error.extra }, badCursor);
            return true;
          },
        );
      });
  });

  describe("pageOf() and newestFirst()", () => {
    const rows = [
      { created_at: "2026-11-23T15:00:03.000Z", id: "ord_3" },
      { created_at: "2026-11-23T15:00:02.000Z", id: "ord_2" },
      { created_at: "2026-11-23T15:00:01.000Z", id: "ord_1" },
    ];
    it("keeps `limit` rows and no cursor on the last page", () => {
      assert.deepEqual(pageOf(rows, 3), { page: rows, next_cursor: null });
    });
    it("gives a cursor that starts the next page after the last row", () => {
      const { page, next_cursor } = pageOf(rows, 2);
      assert.deepEqual(page, rows.slice(0, 2));
      const sql = newestFirst(db("orders"), { limit: 2, cursor: next_cursor! }, /^ord_/).toSQL();
      assert.deepEqual(sql.bindings, [
        new Date("2026-11-23T15:00:02.000Z"),
        new Date("2026-11-23T15:00:02.000Z"),
        "ord_2",
        3,
      ]);
    });
  });

  describe("pageByPosition() and newestByPosition()", () => {
    const rows = [{ position: 9 }, { position: 7 }, { position: 4 }];
    it("keeps `limit` rows and no cursor on the last page", () => {
      assert.deepEqual(
        pageByPosition(rows, 3, (r) => r.position),
        { page: rows, next_cursor: null },
      );
    });
    it("gives a cursor that starts the next page below the last position", () => {
      const { next_cursor } = pageByPosition(rows, 2, (r) => r.position);
      assert.equal(next_cursor, b64("p7"));
      const sql = newestByPosition(db("audit_records"), { limit: 2, cursor: next_cursor }, "position").toSQL();
      assert.match(sql.sql, /where "position" < \? order by "position" desc limit \?/);
      assert.deepEqual(sql.bindings, [7, 3]);
    });
  });
});
