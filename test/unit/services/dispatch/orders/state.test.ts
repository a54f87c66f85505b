// The status machine (orders/state.ts): every move forward and backward, and the status sets, as the contract
// draws them; a table per question, keyed by every status so a new one must be decided here too.
import { strict as assert } from "node:assert";
import {
  customerMayCancel,
  isComing,
  isFinal,
  isUnderWay,
  mayGiveBack,
  moveTarget,
  type MoveKind,
  type OrderLifecycleStatus,
} from "../../../../../server/services/dispatch/orders/state.js";

const moves: Record<OrderLifecycleStatus, Record<MoveKind, OrderLifecycleStatus | null>> = {
  accepted_pending_fulfilment: { step: "pending_dispatch", cancel: "cancelled", give_back: null, requeue: null },
  pending_dispatch: {
    step: "dispatched",
    cancel: "cancelled",
    give_back: null,
    requeue: "accepted_pending_fulfilment",
  },
  dispatched: { step: "en_route", cancel: "cancelled", give_back: "pending_dispatch", requeue: null },
  en_route: { step: "on_site", cancel: "cancelled", give_back: "pending_dispatch", requeue: null },
  on_site: { step: "completed", cancel: "cancelled", give_back: null, requeue: null },
  completed: { step: null, cancel: null, give_back: null, requeue: null },
  cancelled: { step: null, cancel: null, give_back: null, requeue: null },
};

/** [final, customer may cancel, contractor coming, under way, may give back] */
const sets: Record<OrderLifecycleStatus, [boolean, boolean, boolean, boolean, boolean]> = {
  accepted_pending_fulfilment: [false, true, false, false, false],
  pending_dispatch: [false, true, true, false, false],
  dispatched: [false, true, true, true, true],
  en_route: [false, true, true, true, true],
  on_site: [false, false, false, true, false],
  completed: [true, false, false, false, false],
  cancelled: [true, false, false, false, false],
};

describe("status machine", () => {
  describe("moveTarget()", () => {
    for (const [from, byKind] of Object.entries(moves) as [OrderLifecycleStatus, Record<MoveKind, unknown>][])
      for (const [kind, to] of Object.entries(byKind) as [MoveKind, OrderLifecycleStatus | null][])
        it(`${kind} from ${from} ${to ? `reaches ${to}` : "is no move"}`, () => {
          assert.equal(moveTarget(from, kind), to);
        });
  });

  describe("status sets", () => {
    for (const [status, expected] of Object.entries(sets) as [OrderLifecycleStatus, boolean[]][])
      it(`${status}: final, customer-cancellable, coming, under way, givable = ${expected.join(", ")}`, () => {
        const actual = [isFinal, customerMayCancel, isComing, isUnderWay, mayGiveBack].map((set) => set(status));
        assert.deepEqual(actual, expected);
      });
  });
});
