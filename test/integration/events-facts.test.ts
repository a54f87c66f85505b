// The facts of a status change (order.assigned, order.eta_updated, order.completed) on every path that makes them — creation (201),
// an operator's assignment, the sandbox's step, completion — each right after its status event in the feed, the
// status events unchanged (type, previous_status), the order's status history free of facts, and a signed webhook
// per event whose body is the feed's event; on every test database.
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { freePort } from "../../mocks/prism.js";
import { anchorageContractor, contractorInput, orderRequest } from "../fixtures/requests.js";
import { postOrder, recordEvent, startReceiver, webhookSecret } from "../fixtures/orders.js";
import { jsonRequest } from "../helpers/request.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import { anchorageWeekdayMorning, installBusinessTime } from "../helpers/business-time.js";
import { now } from "../../server/services/shared/clock.js";

interface FeedEvent {
  id: string;
  type: string;
  data: {
    status: string;
    previous_status: string | null;
    assigned_contractor_ref: string | null;
    quoted_cost_cents: number | null;
    final_cost_cents: number | null;
    reassigned?: boolean;
    eta?: { estimated_arrival_at: string; updated_at: string; source: string };
  };
}

const akOrder = { trade: "hvac", location: { state: "AK" }, urgency: "urgent", description: "No heat." };
const seqOf = (id: string) => Number(id.slice(4));

for (const db of databases()) {
  describe(`event facts (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    const create = async (body: unknown) => {
      const response = await postOrder(t, { "x-api-key": key }, body);
      return { status: response.status, order: (await response.json()).order as Record<string, unknown> };
    };
    const feed = async (id: string) => {
      const response = await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}/events`, { headers: { "x-api-key": key } });
      return ((await response.json()) as { items: FeedEvent[] }).items;
    };
    const view = async (id: string) =>
      (await (await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}`, { headers: { "x-api-key": key } })).json()) as {
        events: { status: string }[];
        assigned_contractor_ref: string | null;
        quoted_cost_cents: number | null;
      };
    const typesOf = (events: FeedEvent[]) => events.map((e) => [e.type, e.data.previous_status, e.data.status]);

    before(async () => {
      t = await startTestServer(db, { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "20" }, { inject: true });
      key = (await t.issueKey({ account: "facts" })).key;
    });
    after(() => t?.stop());

    it("a matched order (201) is order.created then order.assigned (not reassigned), one status in its history", async () => {
      const { status, order } = await create({ ...orderRequest, reference_id: "facts-201" });
      assert.equal(status, 201);
      const events = await feed(order.id as string);
      assert.deepEqual(typesOf(events), [
        ["order.created", null, "pending_dispatch"],
        ["order.assigned", null, "pending_dispatch"],
      ]);
      assert.ok(seqOf(events[0].id) < seqOf(events[1].id));
      assert.equal(events[1].data.reassigned, false);
      assert.equal("reassigned" in events[0].data, false);
      assert.deepEqual(
        [events[1].data.assigned_contractor_ref, events[1].data.quoted_cost_cents],
        [order.assigned_contractor_ref, order.quoted_cost_cents],
      );
      assert.deepEqual(
        (await view(order.id as string)).events.map((e) => e.status),
        ["pending_dispatch"],
      );
    });

    it("an unassigned order (202) has no order.assigned until an operator assigns it, named or from the pool", async () => {
      const named = await create({ ...akOrder, reference_id: "facts-named" });
      const pooled = await create({ ...akOrder, reference_id: "facts-pool" });
      assert.deepEqual([named.status, pooled.status], [202, 202]);
      assert.deepEqual(typesOf(await feed(named.order.id as string)), [
        ["order.created", null, "accepted_pending_fulfilment"],
      ]);
      const contractor = await (
        await jsonRequest(t, "POST", "/api/admin/v1/contractors", {
          headers: { authorization: `Bearer ${adminToken}` },
          body: { ...contractorInput, name: "Fairbanks Heat", trades: ["hvac"], service_areas: [{ state: "AK" }] },
        })
      ).json();
      const assign = [
        [named.order.id, { status: "pending_dispatch", contractor_id: contractor.id }],
        [pooled.order.id, { status: "pending_dispatch" }],
      ] as const;
      for (const [id, body] of assign) {
        assert.equal((await recordEvent(t, id as string, body)).status, 201);
        const events = await feed(id as string);
        assert.deepEqual(typesOf(events), [
          ["order.created", null, "accepted_pending_fulfilment"],
          ["order.status_changed", "accepted_pending_fulfilment", "pending_dispatch"],
          ["order.assigned", "accepted_pending_fulfilment", "pending_dispatch"],
        ]);
        assert.equal(events[2].data.reassigned, false);
        assert.equal(events[2].data.assigned_contractor_ref, contractor.ref);
        assert.deepEqual(
          (await view(id as string)).events.map((e) => e.status),
          ["accepted_pending_fulfilment", "pending_dispatch"],
        );
      }
    });

    it("the sandbox's step assigns an unassigned test order once a contractor can take it: order.assigned after its status event", async () => {
      const { status, order } = await create({ ...akOrder, trade: "roofing", reference_id: "facts-sandbox" });
      assert.equal(status, 202);
      const advance = () =>
        jsonRequest(t, "POST", `/api/dispatch/v1/sandbox/orders/${String(order.id)}/advance`, {
          headers: { "x-api-key": key },
          body: {},
        });
      assert.equal((await advance()).status, 409, "nobody serves AK: no contractor is invented");
      await t.app.services.contractors.create(anchorageContractor("roofing", "Anchorage Roofing Facts"));
      const advanced = await advance();
      assert.equal(advanced.status, 200);
      const events = await feed(order.id as string);
      assert.deepEqual(typesOf(events), [
        ["order.created", null, "accepted_pending_fulfilment"],
        ["order.status_changed", "accepted_pending_fulfilment", "pending_dispatch"],
        ["order.assigned", "accepted_pending_fulfilment", "pending_dispatch"],
      ]);
      assert.equal(events[2].data.reassigned, false);
      assert.notEqual(events[2].data.assigned_contractor_ref, null);
    });

    it("the dispatcher assigns an unassigned test order once a contractor joins, the walker walks it: the same facts", async () => {
      const restoreClock = installBusinessTime(anchorageWeekdayMorning); // a window under way: the walk does not wait
      const walking = await startTestServer(db, { SANDBOX_STEP_MS: "50" }); // a port: the walker calls over HTTP
      try {
        const k = (await walking.issueKey({ account: "facts-walker" })).key;
        const body = { ...akOrder, trade: "painting", reference_id: "facts-walker" };
        const id = (await (await postOrder(walking, { "x-api-key": k }, body)).json()).order.id as string;
        await walking.app.services.contractors.create(anchorageContractor("painting", "Anchorage Painters"));
        const feedOf = async () =>
          (
            (await (
              await fetch(`${walking.url}/api/dispatch/v1/orders/${id}/events`, { headers: { "x-api-key": k } })
            ).json()) as { items: FeedEvent[] }
          ).items;
        await until(async () => (await feedOf()).some((e) => e.type === "order.completed"), {
          timeoutMs: 20_000,
          intervalMs: 200,
        });
        const events = await feedOf();
        assert.deepEqual(typesOf(events).slice(0, 3), [
          ["order.created", null, "accepted_pending_fulfilment"],
          ["order.status_changed", "accepted_pending_fulfilment", "pending_dispatch"],
          ["order.assigned", "accepted_pending_fulfilment", "pending_dispatch"],
        ]);
        assert.deepEqual(
          events.map((e) => e.type).filter((type) => type === "order.assigned" || type === "order.completed"),
          ["order.assigned", "order.assigned", "order.completed"], // offered, then accepted by its contractor
        );
      } finally {
        await walking.stop();
        restoreClock();
      }
    });

    it("completing is order.status_changed then order.completed with the final and quoted cost; status events keep their previous_status", async () => {
      const { order } = await create({ ...orderRequest, reference_id: "facts-complete" });
      const id = order.id as string;
      for (const status of ["dispatched", "en_route", "on_site"]) await recordEvent(t, id, { status });
      assert.equal((await recordEvent(t, id, { status: "completed", final_cost_cents: 41250 })).status, 201);
      const events = await feed(id);
      assert.deepEqual(typesOf(events), [
        ["order.created", null, "pending_dispatch"],
        ["order.assigned", null, "pending_dispatch"],
        ["order.status_changed", "pending_dispatch", "dispatched"],
        ["order.status_changed", "dispatched", "en_route"],
        ["order.status_changed", "en_route", "on_site"],
        ["order.status_changed", "on_site", "completed"],
        ["order.completed", "on_site", "completed"],
      ]);
      const ids = events.map((e) => seqOf(e.id));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
      const completed = events.at(-1)!.data;
      assert.deepEqual([completed.final_cost_cents, completed.quoted_cost_cents], [41250, order.quoted_cost_cents]);
      assert.deepEqual(
        (await view(id)).events.map((e) => e.status),
        ["pending_dispatch", "dispatched", "en_route", "on_site", "completed"],
      );
    });

    it("sends a signed webhook per event, new types included, whose body is the feed's event; deliveries name the type", async () => {
      const port = await freePort();
      const receiver = await startReceiver(port);
      try {
        const callback_url = `http://127.0.0.1:${port}/hooks`;
        const { order } = await create({ ...orderRequest, reference_id: "facts-hook", callback_url });
        const id = order.id as string;
        const estimated_arrival_at = new Date(now() + 40 * 60_000).toISOString(); // an ETA update: one more fact
        await recordEvent(t, id, { status: "dispatched", estimated_arrival_at });
        for (const status of ["en_route", "on_site"]) await recordEvent(t, id, { status });
        await recordEvent(t, id, { status: "completed", final_cost_cents: 39900 });
        await until(() => receiver.deliveries.length >= 8);
        const events = await feed(id);
        assert.deepEqual(
          events.filter((e) => e.type === "order.eta_updated").map((e) => e.data.eta?.estimated_arrival_at),
          [estimated_arrival_at],
        );
        assert.deepEqual(
          receiver.deliveries.map((d) => d.body),
          events,
        );
        const secret = await webhookSecret(t, "facts");
        for (const d of receiver.deliveries) new Webhook(secret).verify(d.raw, d.headers as Record<string, string>);
        assert.deepEqual(
          receiver.deliveries.map((d) => d.headers["webhook-id"]),
          events.map((e) => e.id),
        );
        const deliveries = await (
          await t.fetch(`${t.url}/api/dispatch/v1/webhooks/deliveries?order_id=${id}`, {
            headers: { "x-api-key": key },
          })
        ).json();
        assert.deepEqual(
          (deliveries.items as { event_type: string }[]).map((d) => d.event_type).reverse(),
          events.map((e) => e.type),
        );
      } finally {
        await receiver.stop();
      }
    });
  });
}
