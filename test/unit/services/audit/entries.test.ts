// A fresh record's seal (built from its canonical parts) must equal the leaf hash that verification recomputes
// from the stored row (parse, then RFC 8785 canonicalisation of the whole record).
import assert from "node:assert/strict";
import fc from "fast-check";
import { auditRow, auditTypes, leafHashOfRow } from "../../../../server/services/audit/entries.js";

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const text = fc.string({ unit: "grapheme", maxLength: 40 });

describe("audit entries: seals", () => {
  it("a new record's seal is seal_ + the leaf hash of the stored row, for any content (300 cases)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...auditTypes),
        fc.option(text, { nil: null }),
        text,
        fc.dictionary(text, jsonValue),
        fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }),
        (type, account, subject, content, at) => {
          const row = auditRow(
            { type, tenant: account === null ? null : { account, environment: "live" }, subject, content },
            at,
          );
          assert.equal(row.seal, `seal_${leafHashOfRow(row).toString("hex")}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a record whose stored content was altered no longer matches its seal", () => {
    const row = auditRow({
      type: "quote",
      tenant: { account: "acme", environment: "test" },
      subject: "qt_1",
      content: { cents: 100 },
    });
    assert.notEqual(row.seal, `seal_${leafHashOfRow({ ...row, content: '{"cents":101}' }).toString("hex")}`);
  });
});
