// The generated CLI command table mirrors the contract.
import assert from "node:assert/strict";
import { operations } from "../../../../cli/generated/operations.js";
import { contractOperations, responseCodes } from "../../../helpers/contract-examples.js";

describe("cli command table", () => {
  it("has one command per operation that can succeed, with unique command words", () => {
    const succeeding = contractOperations.filter((o) => responseCodes(o.operationId).some((c) => c.startsWith("2")));
    assert.deepEqual(operations.map((o) => o.operationId).sort(), succeeding.map((o) => o.operationId).sort());
    const names = operations.map((o) => o.command.join(" "));
    assert.equal(new Set(names).size, names.length);
  });

  it("flattens the quote body into the documented flags", () => {
    const quote = operations.find((o) => o.operationId === "createQuote")!;
    assert.deepEqual(
      quote.flags.map((f) => f.flag),
      ["trade", "state", "zip", "city", "urgency", "nte-cents", "description"],
    );
    const state = quote.flags.find((f) => f.flag === "state")!;
    assert.deepEqual([state.required, state.target, state.enum?.length], [true, ["location", "state"], 56]);
    const zip = quote.flags.find((f) => f.flag === "zip")!;
    assert.deepEqual([zip.maxLength, zip.pattern], [10, "^[0-9]{5}(-[0-9]{4})?$"]);
    assert.equal(quote.flags.find((f) => f.flag === "nte-cents")!.maximum, 100000000);
  });

  it("names order flags as the issue asks", () => {
    const order = operations.find((o) => o.command.join(" ") === "order")!;
    for (const flag of [
      "trade",
      "state",
      "zip",
      "city",
      "urgency",
      "nte-cents",
      "description",
      "reference-id",
      "callback-url",
      "idempotency-key",
    ]) {
      assert.ok(
        order.flags.some((f) => f.flag === flag),
        `missing --${flag}`,
      );
    }
  });
});
