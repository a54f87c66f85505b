// Choices in openapi.yaml that readers depend on and a tidy-up could undo: the docs navigation order, and the trade
// index's published field names.
import assert from "node:assert/strict";
import { loadContract, type JsonObject } from "../../scripts/contract.js";

const contract = loadContract();

describe("openapi.yaml", () => {
  it("lists the quote and orders tags first, so /docs opens where a customer starts (probe later)", () => {
    const tags = (contract.tags as { name: string }[]).map((t) => t.name);
    assert.deepEqual(tags.slice(0, 2), ["quote", "orders"]);
    assert.ok(tags.indexOf("probe") > tags.indexOf("orders"));
  });

  it("keeps the trade index's camelCase names and says why", () => {
    const entry = ((contract.components as JsonObject).schemas as Record<string, JsonObject>).TradeIndexEntry;
    assert.ok("medianRateDollars" in (entry.properties as JsonObject));
    assert.match(
      String(entry.description),
      /medianRateDollars[\s\S]*product specification|product specification[\s\S]*medianRateDollars/,
    );
  });
});
