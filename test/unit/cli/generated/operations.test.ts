// The generated CLI command table mirrors the contract.
import assert from "node:assert/strict";
import { operations } from "../../../../cli/generated/operations.js";
import { contractOperations } from "../../../helpers/contract-examples.js";

describe("cli command table", () => {
  it("has one command per operation, with unique command words", () => {
    assert.equal(operations.length, contractOperations.length);
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
    assert.deepEqual(
      [state.required, state.minLength, state.maxLength, state.target],
      [true, 2, 2, ["location", "state"]],
    );
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
