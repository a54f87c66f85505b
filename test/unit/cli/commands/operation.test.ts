// The next step a person is shown after an order command: never the command just run, never `watch` for an order
// that will not move.
import assert from "node:assert/strict";
import { nextStep } from "../../../../cli/commands/operation.js";

const order = { id: "ord_1", status: "accepted_pending_fulfilment", nte_cents: 10_000, quoted_cost_cents: 12_000 };

describe("cli operation command", () => {
  describe("nextStep()", () => {
    const cases: [string, string, unknown, RegExp | undefined][] = [
      [
        "a created order",
        "createOrder",
        { order: { id: "ord_1", status: "pending_dispatch" } },
        /^dispatch orders get ord_1 /,
      ],
      ["a read order on its way", "getOrder", { ...order, nte_cents: null }, /^dispatch orders watch ord_1 /],
      [
        "a read order held over its NTE",
        "getOrder",
        { ...order, price_revision: { id: "prv_1", status: "pending" } },
        /^held over its NTE: approve its price revision to dispatch it, 'dispatch orders revisions approve ord_1 prv_1'/,
      ],
      [
        "a created order held over its NTE",
        "createOrder",
        { order: { id: "ord_1", status: "accepted_pending_fulfilment" }, fulfilment: { reason: "over_nte" } },
        /^held over its NTE/,
      ],
      ["a completed order", "getOrder", { ...order, status: "completed" }, undefined],
      ["another operation", "listOrders", { items: [] }, undefined],
    ];
    for (const [name, operationId, result, expected] of cases)
      it(`${expected ? "suggests" : "suggests nothing"} for ${name}`, () => {
        const next = nextStep(operationId, result);
        if (expected) assert.match(next ?? "", expected);
        else assert.equal(next, undefined);
        if (name.includes("held")) assert.doesNotMatch(next ?? "", /watch/);
      });
  });
});
