// The order's ETA on every path that sets or moves it: estimated at assignment (201 creation, the dispatcher's
// re-match), re-estimated by an operator's event and by the sandbox's contractor setting off, each re-estimate an
// order.eta_updated fact right after its status event, carrying what the order view then shows (in the feed and on
// the SSE stream alike); frozen from on_site on; an operator's time out of bounds or on a later step is 422 naming
// the field. On every test database.
import assert from "node:assert/strict";
import type { components } from "../../sdk/generated/openapi.js";
import { anchorageContractor, orderRequest } from "../fixtures/requests.js";
import { assignmentEta, postOrder, recordEvent } from "../fixtures/orders.js";
import { jsonRequest } from "../helpers/request.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { openSse } from "../helpers/sse.js";
import { until, untilValue } from "../helpers/wait.js";
import { now } from "../../server/services/shared/clock.js";

type OrderView = components["schemas"]["OrderStatus"];
type FeedEvent = components["schemas"]["DispatchEvent"];

const minute = 60_000;
const akOrder = { trade: "hvac", location: { state: "AK" }, urgency: "urgent", description: "No heat." } as const;
const typesOf = (events: FeedEvent[]) => events.map((e) => [e.type, e.data.status]);

for (const db of databases()) {
  describe(`order ETA (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    const create = async (body: unknown) => {
      const response = await postOrder(t, { "x-api-key": key }, body);
      return { status: response.status, id: ((await response.json()) as { order: { id: string } }).order.id };
    };
    const view = async (id: string) =>
      (await (
        await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}`, { headers: { "x-api-key": key } })
      ).json()) as OrderView;
    const feed = async (id: string) => {
      const response = await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}/events`, { headers: { "x-api-key": key } });
      return ((await response.json()) as { items: FeedEvent[] }).items;
    };
    const advance = (id: string, to: string) =>
      jsonRequest(t, "POST", `/api/dispatch/v1/sandbox/orders/${id}/advance`, {
        headers: { "x-api-key": key },
        body: { to },
      });

    before(async () => {
      t = await startTestServer(db); // on a port: the dispatcher runs once the server listens
      key = (await t.issueKey({ account: "eta" })).key;
    });
    after(() => t?.stop());

    it("is set at a 201 creation from the match's response minutes (source dispatch; window when its booked window starts later), carried by order.assigned", async () => {
      const { status, id } = await create({ ...orderRequest, reference_id: "eta-201" });
      assert.equal(status, 201);
      const order = await view(id);
      assert.deepEqual(order.eta, assignmentEta(order, order.created_at));
      const events = await feed(id);
      assert.deepEqual(typesOf(events), [
        ["order.created", "pending_dispatch"],
        ["order.assigned", "pending_dispatch"],
      ]);
      assert.deepEqual(events[1].data.eta, order.eta);
      assert.equal("eta" in events[0].data, false);
    });

    it("is null on an unassigned order (202) until the dispatcher re-matches it, then set as at creation", async () => {
      const { status, id } = await create({ ...akOrder, reference_id: "eta-202" });
      assert.equal(status, 202);
      assert.equal((await view(id)).eta, null);
      const joined = await jsonRequest(t, "POST", "/api/admin/v1/contractors", {
        headers: { authorization: `Bearer ${adminToken}` },
        body: anchorageContractor("hvac", "Anchorage Heat ETA"),
      });
      assert.equal(joined.status, 201);
      const order = await untilValue(
        async () => {
          const current = await view(id);
          return current.status === "pending_dispatch" ? current : undefined;
        },
        { timeoutMs: 10_000, message: "the dispatcher's assignment" },
      );
      const assignedAt = order.events.at(-1)!.at;
      assert.deepEqual(order.eta, assignmentEta(order, assignedAt));
      const events = await feed(id);
      assert.deepEqual(typesOf(events), [
        ["order.created", "accepted_pending_fulfilment"],
        ["order.status_changed", "pending_dispatch"],
        ["order.assigned", "pending_dispatch"],
      ]);
      assert.deepEqual(events[2].data.eta, order.eta);
    });

    it("moves with an operator's estimated_arrival_at (order.eta_updated after the status event), then stays frozen", async () => {
      const { id } = await create({ ...orderRequest, reference_id: "eta-operator" });
      const first = (await view(id)).eta;
      const given = new Date(now() + 45 * minute).toISOString();
      const dispatched = await recordEvent(t, id, { status: "dispatched", estimated_arrival_at: given });
      assert.equal(dispatched.status, 201);
      const answered = (await dispatched.json()) as OrderView;
      assert.equal(answered.eta?.estimated_arrival_at, given);
      assert.equal(answered.eta?.source, "operator");
      assert.equal(answered.eta?.updated_at, answered.events.at(-1)!.at);
      assert.deepEqual(await view(id), answered);
      // the same time from the same source again is no change: no event, updated_at kept
      assert.equal((await recordEvent(t, id, { status: "en_route", estimated_arrival_at: given })).status, 201);
      assert.deepEqual((await view(id)).eta, answered.eta);
      const onSite = await recordEvent(t, id, { status: "on_site", estimated_arrival_at: given });
      assert.equal(onSite.status, 422);
      assert.equal(
        ((await onSite.json()) as { errors: { pointer: string }[] }).errors[0].pointer,
        "/estimated_arrival_at",
      );
      for (const step of [{ status: "on_site" }, { status: "completed", final_cost_cents: 39_000 }])
        assert.equal((await recordEvent(t, id, step)).status, 201);
      const completed = await view(id);
      assert.equal(completed.status, "completed");
      assert.deepEqual(completed.eta, answered.eta, "the last estimate stands once on site");
      const events = await feed(id);
      assert.deepEqual(typesOf(events), [
        ["order.created", "pending_dispatch"],
        ["order.assigned", "pending_dispatch"],
        ["order.status_changed", "dispatched"],
        ["order.eta_updated", "dispatched"],
        ["order.status_changed", "en_route"],
        ["order.status_changed", "on_site"],
        ["order.status_changed", "completed"],
        ["order.completed", "completed"],
      ]);
      assert.deepEqual(events[1].data.eta, first);
      assert.deepEqual(events[3].data.eta, answered.eta);
      assert.equal(events[3].data.previous_status, "pending_dispatch");
    });

    it("refuses an operator's ETA far in the past or future, or not a date-time: 422 naming the field, nothing moved", async () => {
      const { id } = await create({ ...orderRequest, reference_id: "eta-bounds" });
      const before = await view(id);
      const cases = [
        new Date(now() - 2 * 60 * minute).toISOString(),
        new Date(now() + 31 * 24 * 60 * minute).toISOString(),
        "9999-12-31T23:59:59Z",
        "tomorrow at noon",
        "x".repeat(41),
      ];
      for (const estimated_arrival_at of cases) {
        const response = await recordEvent(t, id, { status: "dispatched", estimated_arrival_at });
        assert.equal(response.status, 422, estimated_arrival_at);
        const problem = (await response.json()) as { errors: { pointer: string }[] };
        assert.deepEqual([...new Set(problem.errors.map((e) => e.pointer))], ["/estimated_arrival_at"]);
      }
      assert.deepEqual(await view(id), before);
    });

    it("is re-estimated by the sandbox's contractor setting off (source contractor: it reports through updateJobStatus), on the feed and the SSE stream alike", async () => {
      const { id } = await create({ ...orderRequest, reference_id: "eta-sandbox" });
      const stream = await openSse(`${t.url}/api/dispatch/v1/orders/${id}/events`, { "x-api-key": key });
      try {
        assert.equal((await advance(id, "en_route")).status, 200);
        const order = await view(id);
        const setOff = order.events.at(-1)!;
        assert.equal(setOff.status, "en_route");
        assert.equal(order.eta?.source, "contractor");
        assert.equal(order.eta?.updated_at, setOff.at);
        // its drive (the response minutes) from setting off, inside the booked window: not before its start, and
        // shortened to arrive 5 minutes before its end at the latest
        const left = Date.parse(setOff.at);
        const driven = left + order.estimated_response_minutes! * minute;
        const window = order.arrival_window!;
        const [start, end] = [Date.parse(window.start), Date.parse(window.end)];
        const expected = Math.max(start, left, Math.min(driven, end - 5 * minute));
        const lead = Date.parse(order.eta.estimated_arrival_at) - left;
        assert.ok(Math.abs(Date.parse(order.eta.estimated_arrival_at) - expected) < 5_000, `lead ${lead} ms`);
        assert.match(setOff.note ?? "", new RegExp(`ETA ${Math.round(lead / minute)} minutes`));
        assert.equal(order.eta.eta_outside_window, expected >= end, "inside the booked window");
        const events = await feed(id);
        assert.deepEqual(typesOf(events).slice(-2), [
          ["order.status_changed", "en_route"],
          ["order.eta_updated", "en_route"],
        ]);
        assert.deepEqual(events.at(-1)!.data.eta, order.eta);
        await until(() => stream.events.length === events.length, { message: "the stream's events" });
        assert.deepEqual(
          stream.events.map(({ at: _at, ...event }) => event),
          events,
        );
      } finally {
        stream.close();
      }
    });
  });
}
