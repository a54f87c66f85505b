// cli/table.ts: tables keep identifiers whole and column headers readable.
import assert from "node:assert/strict";
import { renderTable } from "../../../cli/table.js";

describe("cli table", () => {
  describe("renderTable()", () => {
    it("prints ids, URLs and seals in full however long", () => {
      const seal = `seal_${"ab".repeat(40)}`;
      const url = `http://127.0.0.1:3000/api/dispatch/v1/orders/ord_${"X".repeat(60)}`;
      const out = renderTable({ seal, tracking: { status_url: url }, rows: [{ id: seal, url }] });
      assert.equal(out.split(seal).length - 1, 2);
      assert.equal(out.split(url).length - 1, 2);
      assert.doesNotMatch(out, /…/);
    });

    it("still shortens long prose", () => {
      assert.match(renderTable({ description: "word ".repeat(40) }), /…/);
    });

    it("keeps the words of camelCase column names apart", () => {
      const out = renderTable([{ billedHourlyRateRoutineDollars: 1, trade_code: "hvac" }]);
      assert.match(out.split("\n")[0], /^BILLED_HOURLY_RATE_ROUTINE_DOLLARS {2}TRADE_CODE$/);
    });
  });
});
