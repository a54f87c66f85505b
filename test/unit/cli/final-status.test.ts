// The CLI's final statuses (cli/final-status.ts) are the server's status machine's (orders/state.ts), status by status.
import assert from "node:assert/strict";
import { isFinalStatus } from "../../../cli/final-status.js";
import { contractEnums } from "../../../server/generated/contract.js";
import { isFinal } from "../../../server/services/dispatch/orders/state.js";

describe("cli final statuses", () => {
  for (const status of contractEnums.OrderLifecycleStatus)
    it(`${status}: ${isFinal(status) ? "final" : "moves on"}, as the server's machine says`, () => {
      assert.equal(isFinalStatus(status), isFinal(status));
    });

  it("a status the CLI does not know yet is not final", () => {
    assert.equal(isFinalStatus("awaiting_parts"), false);
    assert.equal(isFinalStatus("toString"), false);
  });
});
