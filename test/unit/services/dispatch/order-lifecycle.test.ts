import { strict as assert } from "node:assert";
import {
  assertCustomerCancellable,
  assertTransition,
  cancellationOf,
  type OrderEventInput,
  type OrderLifecycleStatus,
} from "../../../../server/services/dispatch/orders/transition.js";
import { statusUrl } from "../../../../server/services/shared/base-url.js";
import { toEvent } from "../../../../server/services/events/feed.js";
import { DomainError } from "../../../../server/services/errors.js";

type Target = OrderEventInput["status"];
const statuses: OrderLifecycleStatus[] = [
  "accepted_pending_fulfilment",
  "pending_dispatch",
  "dispatched",
  "en_route",
  "on_site",
  "completed",
  "cancelled",
];
const targets = statuses.filter((s): s is Target => s !== "accepted_pending_fulfilment");

// The lifecycle as the spec draws it: one step forward, or cancel until completion; completed/cancelled are final.
const allowed: Record<OrderLifecycleStatus, Target[]> = {
  accepted_pending_fulfilment: ["pending_dispatch", "cancelled"],
  pending_dispatch: ["dispatched", "cancelled"],
  dispatched: ["en_route", "cancelled"],
  en_route: ["on_site", "cancelled"],
  on_site: ["completed", "cancelled"],
  completed: [],
  cancelled: [],
};

const row = (status: OrderLifecycleStatus) => ({ id: "ord_1", status });
const inputFor = (status: Target): OrderEventInput =>
  status === "completed" ? { status, final_cost_cents: 12_000 } : { status };

/** The DomainError `fn` throws (fails the test if it throws nothing or something else). */
function domainErrorOf(fn: () => void): DomainError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    return error;
  }
  assert.fail("expected a DomainError");
}

describe("order lifecycle", () => {
  describe("assertTransition()", () => {
    for (const from of statuses) {
      for (const to of targets) {
        const ok = allowed[from].includes(to);
        it(`${ok ? "allows" : "refuses with 409 invalid_transition"} ${from} -> ${to}`, () => {
          if (ok) {
            assertTransition(row(from), inputFor(to));
            return;
          }
          const error = domainErrorOf(() => {
            assertTransition(row(from), inputFor(to));
          });
          assert.deepEqual([error.kind, error.code], ["conflict", "invalid_transition"]);
          assert.match(error.message, allowed[from].length ? new RegExp(allowed[from].join(" or ")) : /final status/);
        });
      }
    }

    const invalid: [string, OrderLifecycleStatus, OrderEventInput, string][] = [
      ["completing without final_cost_cents", "on_site", { status: "completed" }, "/final_cost_cents"],
      [
        "naming a contractor on an assigned order",
        "pending_dispatch",
        { status: "dispatched", contractor_id: "c" },
        "/contractor_id",
      ],
    ];
    for (const [name, from, input, pointer] of invalid) {
      it(`refuses ${name} with 422 at ${pointer}`, () => {
        const error = domainErrorOf(() => {
          assertTransition(row(from), input);
        });
        assert.equal(error.kind, "validation");
        assert.deepEqual(
          error.extra.errors?.map((e) => e.pointer),
          [pointer],
        );
      });
    }

    it("accepts a contractor on the assigning transition", () => {
      assertTransition(row("accepted_pending_fulfilment"), { status: "pending_dispatch", contractor_id: "c" });
    });
  });

  describe("assertCustomerCancellable()", () => {
    const cancellable: Record<OrderLifecycleStatus, boolean> = {
      accepted_pending_fulfilment: true,
      pending_dispatch: true,
      dispatched: true,
      en_route: true,
      on_site: false,
      completed: false,
      cancelled: false,
    };
    for (const status of statuses) {
      it(`${cancellable[status] ? "lets" : "does not let"} the customer cancel when ${status}`, () => {
        if (cancellable[status]) {
          assertCustomerCancellable(row(status));
          return;
        }
        const error = domainErrorOf(() => {
          assertCustomerCancellable(row(status));
        });
        assert.deepEqual([error.kind, error.code], ["conflict", "cannot_cancel"]);
      });
    }
  });

  describe("cancellationOf()", () => {
    const at = new Date("2026-01-02T03:04:05.000Z");
    it("defaults an operator cancellation to operator_decision with the event note", () => {
      assert.deepEqual(cancellationOf({ status: "cancelled", note: "duplicate" }, at), {
        reason: "operator_decision",
        note: "duplicate",
        by: "operator",
        at: "2026-01-02T03:04:05.000Z",
      });
    });

    it("keeps a given cancellation and stamps it", () => {
      const given = { reason: "customer_request" as const, note: null, by: "customer" as const };
      assert.deepEqual(cancellationOf({ status: "cancelled", cancellation: given }, at), {
        ...given,
        at: at.toISOString(),
      });
    });
  });

  describe("statusUrl() and the event renderer (toEvent)", () => {
    const cases: [string, string][] = [
      ["http://127.0.0.1:3000", "http://127.0.0.1:3000/api/dispatch/v1/orders/ord_1"],
      ["http://127.0.0.1:3000/", "http://127.0.0.1:3000/api/dispatch/v1/orders/ord_1"],
      ["https://api.example.test//", "https://api.example.test/api/dispatch/v1/orders/ord_1"],
    ];
    for (const [base, expected] of cases) {
      it(`builds ${expected} from base ${base}`, () => {
        assert.equal(statusUrl(base, "ord_1"), expected);
      });
    }

    it("masks the contractor and carries the previous status", () => {
      const row = {
        seq: 7,
        order_id: "ord_1",
        type: "order.status_changed" as const,
        data: null,
        status: "dispatched" as const,
        at: "2026-01-02T03:04:05Z",
        final_cost_cents: null,
        account: "acme",
        environment: "test" as const,
        contractor_id: "ctr_secret_123",
        reference_id: null,
        quoted_cost_cents: null,
        previous_status: "pending_dispatch" as const,
      };
      const event = toEvent(row, "http://127.0.0.1:3000");
      assert.deepEqual([event.id, event.type], ["evt_7", "order.status_changed"]);
      assert.equal(event.data.previous_status, "pending_dispatch");
      assert.equal(event.data.at, "2026-01-02T03:04:05.000Z");
      assert.notEqual(event.data.assigned_contractor_ref, null);
      assert.doesNotMatch(String(event.data.assigned_contractor_ref), /ctr_secret_123/);
    });
  });
});
