// The orders a background pass skips (server/services/dispatch/orders/order-failures.ts): one cause for every order
// that fails the same way (a SQLSTATE, not the message naming the value), the pass going on after each, and counts
// by step and cause.
import assert from "node:assert/strict";
import { DomainError } from "../../../../server/services/errors.js";
import {
  causeOf,
  createOrderFailures,
  isolated,
  type OrderFailure,
} from "../../../../server/services/dispatch/orders/order-failures.js";

const refused = (value: number) =>
  Object.assign(new Error(`value "${value}" is out of range for type integer`), { code: "22003" });
const order = (id: string) => ({ id, account: "acme", environment: "live" as const });

describe("order failures", () => {
  describe("causeOf()", () => {
    const cases: [string, unknown, string][] = [
      ["a database refusal: its SQLSTATE", refused(2_600_000_000), "22003"],
      ["a domain error: its code", new DomainError("conflict", "invalid_transition", "moved"), "invalid_transition"],
      ["a bug: the error's name", new TypeError("Cannot read properties of undefined"), "TypeError"],
      ["something thrown that is no error: its type", "boom", "string"],
    ];
    for (const [name, error, cause] of cases)
      it(`names ${name}`, () => {
        assert.equal(causeOf(error), cause);
      });
  });

  describe("isolated()", () => {
    it("reports a failed order and answers undefined, so the pass goes on; a success answers its value", async () => {
      const failures = createOrderFailures();
      const reported: OrderFailure[] = [];
      failures.reportTo((failure) => reported.push(failure));
      const outcomes = [];
      for (const id of ["ord_a", "ord_b", "ord_c"])
        outcomes.push(
          await isolated(failures.failed, "assign", order(id), () =>
            id === "ord_b" ? Promise.reject(refused(2_600_000_000)) : Promise.resolve(id),
          ),
        );
      assert.deepEqual(outcomes, ["ord_a", undefined, "ord_c"]);
      assert.deepEqual(
        reported.map((failure) => [failure.step, failure.order.id, failure.cause]),
        [["assign", "ord_b", "22003"]],
      );
    });
  });

  describe("counts()", () => {
    it("counts by step and cause, whatever value each message names", () => {
      const failures = createOrderFailures();
      failures.failed("assign", order("ord_a"), refused(2_600_000_000));
      failures.failed("assign", order("ord_b"), refused(3_000_000_000));
      failures.failed("escalate", order("ord_a"), refused(2_600_000_000));
      failures.failed("assign", order("ord_c"), new TypeError("x"));
      assert.deepEqual(failures.counts(), [
        { step: "assign", cause: "22003", count: 2 },
        { step: "escalate", cause: "22003", count: 1 },
        { step: "assign", cause: "TypeError", count: 1 },
      ]);
    });
  });
});
