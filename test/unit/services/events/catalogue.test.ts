// The event catalogue's rules: the status event of each change, the facts that follow it, and their extras.
import assert from "node:assert/strict";
import { eventTypes } from "../../../../server/generated/events.js";
import {
  eventTypeOf,
  extrasOf,
  factsOf,
  isStatusEvent,
  statusEventTypes,
} from "../../../../server/services/events/catalogue.js";

describe("event catalogue", () => {
  describe("eventTypeOf()", () => {
    const cases: [string, string | null, string][] = [
      ["pending_dispatch", null, "order.created"],
      ["accepted_pending_fulfilment", null, "order.created"],
      ["pending_dispatch", "accepted_pending_fulfilment", "order.status_changed"],
      ["completed", "on_site", "order.status_changed"],
      ["cancelled", "en_route", "order.cancelled"],
    ];
    for (const [status, previous, type] of cases)
      it(`is ${type} for ${String(previous)} -> ${status}`, () => {
        assert.equal(eventTypeOf(status, previous), type);
      });
  });

  describe("factsOf()", () => {
    const cases: [string, Parameters<typeof factsOf>[0], Parameters<typeof factsOf>[1], unknown[]][] = [
      [
        "a new matched order",
        null,
        { status: "pending_dispatch", contractor_id: "ctr_1" },
        [{ type: "order.assigned", data: { reassigned: false } }],
      ],
      ["a new unassigned order", null, { status: "accepted_pending_fulfilment", contractor_id: null }, []],
      [
        "an operator's assignment",
        { status: "accepted_pending_fulfilment", contractor_id: null },
        { status: "pending_dispatch", contractor_id: "ctr_1" },
        [{ type: "order.assigned", data: { reassigned: false } }],
      ],
      [
        "a re-match to another contractor",
        { status: "accepted_pending_fulfilment", contractor_id: "ctr_1" },
        { status: "pending_dispatch", contractor_id: "ctr_2" },
        [{ type: "order.assigned", data: { reassigned: true } }],
      ],
      [
        "a step with the same contractor",
        { status: "pending_dispatch", contractor_id: "ctr_1" },
        { status: "dispatched", contractor_id: "ctr_1" },
        [],
      ],
      [
        "completion",
        { status: "on_site", contractor_id: "ctr_1" },
        { status: "completed", contractor_id: "ctr_1" },
        [{ type: "order.completed", data: null }],
      ],
      [
        "a cancellation",
        { status: "on_site", contractor_id: "ctr_1" },
        { status: "cancelled", contractor_id: "ctr_1" },
        [],
      ],
    ];
    for (const [what, before, after, facts] of cases)
      it(`gives ${JSON.stringify(facts.map((f) => (f as { type: string }).type))} for ${what}`, () => {
        assert.deepEqual(factsOf(before, after), facts);
      });
  });

  it("splits the generated catalogue into the three status types and facts, each fact with its extras only", () => {
    assert.deepEqual(
      eventTypes.filter((type) => isStatusEvent(type)),
      [...statusEventTypes],
    );
    assert.deepEqual(
      eventTypes.filter((type) => !isStatusEvent(type)),
      ["order.assigned", "order.completed", "order.escalated"],
    );
    assert.deepEqual(extrasOf("order.assigned", { reassigned: true }), { reassigned: true });
    assert.deepEqual(extrasOf("order.assigned", null), { reassigned: false });
    assert.deepEqual(extrasOf("order.completed", null), {});
    const escalation = {
      reason: "no_contractor_in_area",
      deadline_at: "2026-11-23T17:02:11.000Z",
      escalated_at: "2026-11-23T17:02:12.000Z",
    } as const;
    assert.deepEqual(extrasOf("order.escalated", { escalation }), { escalation });
    assert.deepEqual(extrasOf("order.escalated", null), {});
    assert.deepEqual(extrasOf("order.assigned", { escalation }), { reassigned: false });
    assert.deepEqual(extrasOf("order.status_changed", { reassigned: true }), {});
  });
});
