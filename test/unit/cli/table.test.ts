// cli/table.ts: tables keep identifiers whole, fit the terminal's width and keep column headers readable.
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

    it("prints every value whole on one line when there is no width (output piped)", () => {
      const description = "word ".repeat(40).trim();
      const out = renderTable({ description, rows: [{ id: "ord_1", note: description }] });
      assert.equal(out.split(description).length - 1, 2);
      assert.doesNotMatch(out, /…/);
    });

    it("wraps long prose at spaces to fit the terminal width", () => {
      const description = Array.from({ length: 40 }, (_, i) => `word${String(i)}`).join(" ");
      const lines = renderTable({ id: "ord_1", description }, 50).split("\n");
      assert.ok(lines.length > 3);
      assert.ok(
        lines.every((l) => l.length <= 50),
        lines.join("\n"),
      );
      assert.equal(lines[1], "id           ord_1");
      const text = lines.slice(2).map((l) => l.replace(/^description {2}|^ {13}/, ""));
      assert.equal(text.join(" "), description);
    });

    it("keeps the side-by-side table when it fits the width", () => {
      const out = renderTable([{ id: "ord_1", status: "dispatched" }], 80).split("\n");
      assert.match(out[0], /^ID {5}STATUS$/);
      assert.match(out[2], /^ord_1 {2}dispatched$/);
    });

    it("drops rows wider than the terminal to KEY value blocks, never cutting ids, URLs or seals", () => {
      const seal = `seal_${"ab".repeat(32)}`;
      const url = `http://127.0.0.1:3000/api/dispatch/v1/orders/ord_${"X".repeat(26)}`;
      const rows = [1, 2].map((n) => ({ id: `ord_${String(n)}`, status_url: url, seal, note: "call before arriving" }));
      const out = renderTable({ items: rows }, 60);
      const lines = out.split("\n");
      assert.ok(lines.includes(`SEAL        ${seal}`), out);
      assert.ok(lines.includes(`STATUS_URL  ${url}`), out);
      assert.ok(lines.includes("ID          ord_2"), out);
      assert.ok(
        lines.filter((l) => !l.includes(seal) && !l.includes(url)).every((l) => l.length <= 60),
        out,
      );
    });

    it("fits a list of orders to a wide terminal: places as city, state; JSON and rightmost columns left out", () => {
      const order = (n: number) => ({
        id: `ord_${String(n)}`,
        status: "dispatched",
        location: { zip: "78701", city: "Austin", state: "TX" },
        events: [{ status: "pending_dispatch", at: "2026-11-24T05:28:32.026Z" }],
        tracking: { status_url: `http://127.0.0.1:3000/api/dispatch/v1/orders/ord_${String(n)}` },
        description: "Kitchen sink supply line leaking under the cabinet.",
        reference_id: `acme-wo-${String(n)}`,
      });
      const lines = renderTable({ items: [order(1), order(2)], next_cursor: null }, 100).split("\n");
      const header = lines.find((l) => l.startsWith("ID"));
      assert.ok(header, lines.join("\n"));
      assert.match(header, /^ID +STATUS +LOCATION +EVENTS +DESCRIPTION/);
      assert.doesNotMatch(header, /TRACKING/);
      assert.ok(
        lines.some((l) => /^ord_1 +dispatched +Austin, TX +\(1\) +Kitchen sink/.test(l)),
        lines.join("\n"),
      );
      assert.ok(
        lines.every((l) => l.length <= 100),
        lines.join("\n"),
      );
    });

    it("keeps the words of camelCase column names apart", () => {
      const out = renderTable([{ billedHourlyRateRoutineDollars: 1, trade_code: "hvac" }]);
      assert.match(out.split("\n")[0], /^BILLED_HOURLY_RATE_ROUTINE_DOLLARS {2}TRADE_CODE$/);
    });
  });
});
