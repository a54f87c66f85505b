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
    const none = { eta: null, arrival_window: null };
    const window = { start: "2026-11-23T10:00:00-06:00", end: "2026-11-23T12:00:00-06:00" };
    const first = {
      eta: {
        estimated_arrival_at: "2026-11-23T17:32:11.000Z",
        updated_at: "2026-11-23T15:02:11.000Z",
        source: "dispatch",
        eta_outside_window: false,
      },
      arrival_window: window,
    } as const;
    const later = {
      eta: {
        estimated_arrival_at: "2026-11-23T19:00:02.000Z",
        updated_at: "2026-11-23T15:40:02.000Z",
        source: "operator",
        eta_outside_window: true,
      },
      arrival_window: window,
    } as const;
    const cases: [string, Parameters<typeof factsOf>[0], Parameters<typeof factsOf>[1], unknown[]][] = [
      [
        "a new matched order",
        null,
        { status: "pending_dispatch", contractor_id: "ctr_1", ...first },
        [{ type: "order.assigned", data: { reassigned: false, eta: first.eta, arrival_window: window } }],
      ],
      ["a new unassigned order", null, { status: "accepted_pending_fulfilment", contractor_id: null, ...none }, []],
      [
        "an operator's assignment",
        { status: "accepted_pending_fulfilment", contractor_id: null, ...none },
        { status: "pending_dispatch", contractor_id: "ctr_1", ...first },
        [{ type: "order.assigned", data: { reassigned: false, eta: first.eta, arrival_window: window } }],
      ],
      [
        "a re-match to another contractor, which re-estimates the ETA",
        { status: "accepted_pending_fulfilment", contractor_id: "ctr_1", ...first },
        { status: "pending_dispatch", contractor_id: "ctr_2", ...later },
        [
          { type: "order.assigned", data: { reassigned: true, eta: later.eta, arrival_window: window } },
          { type: "order.eta_updated", data: { eta: later.eta, arrival_window: window } },
        ],
      ],
      [
        "a step with the same contractor and ETA",
        { status: "pending_dispatch", contractor_id: "ctr_1", ...first },
        { status: "dispatched", contractor_id: "ctr_1", ...first },
        [],
      ],
      [
        "a step that re-estimates the ETA",
        { status: "dispatched", contractor_id: "ctr_1", ...first },
        { status: "en_route", contractor_id: "ctr_1", ...later },
        [{ type: "order.eta_updated", data: { eta: later.eta, arrival_window: window } }],
      ],
      [
        "completion",
        { status: "on_site", contractor_id: "ctr_1", ...first },
        { status: "completed", contractor_id: "ctr_1", ...first },
        [{ type: "order.completed", data: null }],
      ],
      [
        "a cancellation",
        { status: "on_site", contractor_id: "ctr_1", ...first },
        { status: "cancelled", contractor_id: "ctr_1", ...first },
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
      [
        "order.assigned",
        "order.completed",
        "order.escalated",
        "order.eta_updated",
        "order.rescheduled",
        "order.price_revision_requested",
        "order.price_revision_resolved",
      ],
    );
    const eta = {
      estimated_arrival_at: "2026-11-23T16:00:02.000Z",
      updated_at: "2026-11-23T15:40:02.000Z",
      source: "operator",
      eta_outside_window: true,
    } as const;
    const window = { start: "2026-11-23T10:00:00-06:00", end: "2026-11-23T12:00:00-06:00" };
    assert.deepEqual(extrasOf("order.eta_updated", { eta, arrival_window: window }), { eta, arrival_window: window });
    assert.deepEqual(extrasOf("order.eta_updated", { eta, arrival_window: null }), { eta, arrival_window: null });
    assert.deepEqual(extrasOf("order.assigned", { reassigned: false, eta, arrival_window: window }), {
      reassigned: false,
      eta,
      arrival_window: window,
    });
    // written before the flag and the window were kept: the flag reads false, the window stays absent
    const { eta_outside_window: _flag, ...unflagged } = eta;
    assert.deepEqual(extrasOf("order.eta_updated", { eta: unflagged as typeof eta }), {
      eta: { ...eta, eta_outside_window: false },
    });
    assert.deepEqual(extrasOf("order.completed", { eta }), {});
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
    const arrival_window = { start: "2026-11-24T10:00:00-06:00", end: "2026-11-24T12:00:00-06:00" };
    const previous_arrival_window = { start: "2026-11-23T16:00:00-06:00", end: "2026-11-23T18:00:00-06:00" };
    assert.deepEqual(extrasOf("order.rescheduled", { arrival_window, previous_arrival_window }), {
      arrival_window,
      previous_arrival_window,
    });
    assert.deepEqual(extrasOf("order.rescheduled", { arrival_window }), { arrival_window });
    assert.deepEqual(extrasOf("order.rescheduled", null), {});
    assert.deepEqual(extrasOf("order.eta_updated", { arrival_window }), {});
    assert.deepEqual(extrasOf("order.assigned", { escalation }), { reassigned: false });
    assert.deepEqual(extrasOf("order.status_changed", { reassigned: true }), {});
    const price_revision = {
      id: "prv_01JD8XC0A2B4C6D8E0F2G4H6J8",
      order_id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1",
      status: "pending",
      requested_by: "contractor",
      amount_cents: 52000,
      reason: "Corroded valve.",
      nte_cents: 45000,
      created_at: "2026-11-23T15:50:00.000Z",
      resolved_at: null,
    } as const;
    assert.deepEqual(extrasOf("order.price_revision_requested", { price_revision }), { price_revision });
    const approved = { ...price_revision, status: "approved", resolved_at: "2026-11-23T15:55:00.000Z" } as const;
    assert.deepEqual(extrasOf("order.price_revision_resolved", { price_revision: approved }), {
      price_revision: approved,
    });
    assert.deepEqual(extrasOf("order.price_revision_resolved", null), {});
    assert.deepEqual(extrasOf("order.rescheduled", { price_revision }), {});
  });
});
