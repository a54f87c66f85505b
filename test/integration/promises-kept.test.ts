// The promises an order keeps with its customer after booking: an estimate outside the booked window (a contractor's
// en_route report, an operator's estimated_arrival_at) is accepted and flagged (`eta.eta_outside_window`), with
// order.eta_updated carrying the window beside it (the contractor's own feed sees the operator's estimate flagged
// too); inside the window the flag is false. A re-assignment (a decline) keeps the customer's price and announces
// its window: order.assigned carries both, and order.rescheduled (rescheduled_by dispatch) follows when the next
// contractor's booking moved the window. Each feed item is byte for byte its webhook body. On every test database.
import assert from "node:assert/strict";
import type { components } from "../../sdk/generated/openapi.js";
import { recordEvent, startReceiver } from "../fixtures/orders.js";
import { alaskaOrder, answerOffer, call, orderOf, startContractorWorld } from "../helpers/contractors.js";
import { databases, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import type { Receiver } from "../helpers/webhook-receiver.js";

type Event = components["schemas"]["DispatchEvent"];
type Window = components["schemas"]["ArrivalWindow"];
const v1 = "/api/dispatch/v1";
const minute = 60_000;
const fast = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "20", WEBHOOK_BACKOFF_MS: "50" };
const iso = (ms: number) => new Date(ms).toISOString();

for (const db of databases()) {
  describe(`promises kept after booking (${db.name})`, function () {
    this.timeout(120_000);
    let world: Awaited<ReturnType<typeof startContractorWorld>>;
    let t: TestServer;
    let receiver: Receiver;

    /** The order's feed, each item as the JSON text it was served in. */
    async function feedOf(id: string): Promise<string[]> {
      const response = await t.fetch(`${t.url}${v1}/orders/${id}/events`, { headers: { "x-api-key": world.customer } });
      assert.equal(response.status, 200);
      return ((await response.json()) as { items: Event[] }).items.map((item) => JSON.stringify(item));
    }
    const parsed = (texts: string[]) => texts.map((text) => JSON.parse(text) as Event);
    const deliveriesOf = (id: string) => receiver.deliveries.filter((d) => d.body.data.order_id === id);

    /** Every feed item of the order delivered as its webhook, byte for byte; the parsed feed. */
    async function sameEverywhere(id: string): Promise<Event[]> {
      const feed = await feedOf(id);
      await until(() => deliveriesOf(id).length === feed.length, { message: "every event's webhook" });
      const hooks = new Map(deliveriesOf(id).map((d) => [String(d.headers["webhook-id"]), d.raw]));
      for (const item of parsed(feed)) assert.equal(hooks.get(item.id), JSON.stringify(item), item.id);
      return parsed(feed);
    }

    /** A new AK order with a callback, accepted by the cheaper plumber (`window`: one of a quote's to book). */
    async function heldOrder(reference: string, window?: Window) {
      const body = {
        ...alaskaOrder(reference),
        callback_url: `${receiver.url}/promises`,
        ...(window ? { arrival_window: window } : {}),
      };
      const created = await call(t, "POST", `${v1}/order`, { "x-api-key": world.customer }, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = (created.body.order as { id: string }).id;
      const offer = await t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first();
      assert.equal(offer!.contractor_id, world.first.id);
      assert.equal((await answerOffer(t, world.firstKey, offer!.id, "accept")).status, 200);
      const order = await orderOf(t, world.customer, id);
      assert.ok(order.arrival_window, "a booked window");
      return { id, window: order.arrival_window };
    }
    const report = (id: string, body: unknown) =>
      call(t, "POST", `${v1}/contractor/jobs/${id}/status`, { "x-api-key": world.firstKey }, body);

    before(async () => {
      world = await startContractorWorld(db, fast);
      t = world.t;
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver?.stop();
      await t?.stop();
    });

    it("accepts a contractor's en_route ETA after the booked window: 200, flagged on the order, the job and order.eta_updated with the window", async () => {
      const { id, window } = await heldOrder("promise-late");
      const estimated_arrival_at = iso(Date.parse(window.end) + 60 * minute);
      const reported = await report(id, { status: "en_route", estimated_arrival_at });
      assert.equal(reported.status, 200, JSON.stringify(reported.body));
      const eta = (reported.body as { eta: components["schemas"]["Eta"] }).eta;
      assert.deepEqual(
        [eta.estimated_arrival_at, eta.source, eta.eta_outside_window],
        [estimated_arrival_at, "contractor", true],
      );
      const order = await orderOf(t, world.customer, id);
      assert.deepEqual(order.eta, eta);
      assert.deepEqual(order.arrival_window, window, "the window stays as sold");
      const events = await sameEverywhere(id);
      const updated = events.at(-1)!;
      assert.deepEqual([updated.type, updated.data.status], ["order.eta_updated", "en_route"]);
      assert.deepEqual(updated.data.eta, eta);
      assert.deepEqual(updated.data.arrival_window, window);
    });

    it("leaves the flag false for an en_route ETA inside the booked window", async () => {
      const { id, window } = await heldOrder("promise-inside");
      const estimated_arrival_at = iso(Date.parse(window.end) - 30 * minute);
      const reported = await report(id, { status: "en_route", estimated_arrival_at });
      assert.equal(reported.status, 200, JSON.stringify(reported.body));
      const order = await orderOf(t, world.customer, id);
      assert.deepEqual([order.eta?.estimated_arrival_at, order.eta?.eta_outside_window], [estimated_arrival_at, false]);
      const updated = (await sameEverywhere(id)).at(-1)!;
      assert.equal(updated.type, "order.eta_updated");
      assert.deepEqual(updated.data.arrival_window, window);
      assert.equal(updated.data.eta?.eta_outside_window, false);
    });

    it("flags an operator's estimated_arrival_at outside the window, and the holder's job.eta_updated carries the flag", async () => {
      const { id, window } = await heldOrder("promise-operator");
      const estimated_arrival_at = iso(Date.parse(window.end) + 90 * minute);
      const moved = await recordEvent(t, id, { status: "en_route", estimated_arrival_at });
      assert.equal(moved.status, 201, await moved.text());
      const order = await orderOf(t, world.customer, id);
      assert.deepEqual([order.eta?.source, order.eta?.eta_outside_window], ["operator", true]);
      const updated = (await sameEverywhere(id)).at(-1)!;
      assert.deepEqual(updated.data.eta, order.eta);
      assert.deepEqual(updated.data.arrival_window, window);
      const jobs = await call(t, "GET", `${v1}/contractor/jobs`, { "x-api-key": world.firstKey });
      assert.equal(jobs.status, 200, JSON.stringify(jobs.body));
      const job = (jobs.body as { items: components["schemas"]["ContractorJob"][] }).items.find(
        (item) => item.job.order_id === id,
      );
      assert.deepEqual(job?.eta, order.eta);
      const feed = await call(t, "GET", `${v1}/contractor/events?limit=200`, { "x-api-key": world.firstKey });
      const items = (feed.body as { items: components["schemas"]["ContractorEvent"][] }).items;
      const told = items.filter((e) => e.type === "job.eta_updated" && e.data.order_id === id);
      assert.deepEqual(
        told.map((e) => e.data.eta),
        [order.eta],
      );
    });

    it("re-assigns a declined order at the customer's price, order.assigned carrying window and price, order.rescheduled when the window moved", async () => {
      // the customer books a later window of the quote's; the dearer plumber asks more per hour
      const location = { state: "AK", city: "Anchorage", zip: "99501" };
      const quote = await call(
        t,
        "POST",
        `${v1}/quote`,
        { "x-api-key": world.customer },
        { trade: "plumbing", urgency: "routine", location },
      );
      assert.equal(quote.status, 200, JSON.stringify(quote.body));
      const windows = quote.body.arrival_windows as Window[];
      const chosen = windows[Math.min(3, windows.length - 1)];
      const body = {
        ...alaskaOrder("promise-reassign"),
        callback_url: `${receiver.url}/promises`,
        arrival_window: chosen,
      };
      const created = await call(t, "POST", `${v1}/order`, { "x-api-key": world.customer }, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const first = created.body.order as { id: string; quoted_cost_cents: number; arrival_window: Window };
      const { id } = first;
      const offers = () => t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first();
      const declined = await answerOffer(t, world.firstKey, (await offers())!.id, "decline", { reason: "no_capacity" });
      assert.equal(declined.status, 200, JSON.stringify(declined.body));
      const reoffered = (await offers())!;
      assert.equal(reoffered.contractor_id, world.second.id);
      assert.equal(reoffered.quoted_cost_cents, first.quoted_cost_cents, "offered at the customer's price");

      const order = await orderOf(t, world.customer, id);
      assert.equal(order.quoted_cost_cents, first.quoted_cost_cents, "the customer pays what it was quoted");
      const events = await sameEverywhere(id);
      const assigned = events.filter((e) => e.type === "order.assigned");
      assert.deepEqual(
        assigned.map((e) => [e.data.reassigned, e.data.quoted_cost_cents, e.data.arrival_window]),
        [
          [false, first.quoted_cost_cents, first.arrival_window],
          [true, first.quoted_cost_cents, order.arrival_window],
        ],
      );
      assert.deepEqual(assigned[1].data.eta, order.eta);
      const after = events.slice(events.indexOf(assigned[1]) + 1);
      const moved = Date.parse(order.arrival_window!.start) !== Date.parse(first.arrival_window.start);
      if (moved)
        assert.deepEqual(
          after.map((e) => [e.type, e.data.arrival_window, e.data.previous_arrival_window, e.data.rescheduled_by]),
          [["order.rescheduled", order.arrival_window, first.arrival_window, "dispatch"]],
        );
      else assert.deepEqual(after, [], "the same window: nothing more to announce");
      // the new contractor was offered the job in its window already: no job.rescheduled on its feed
      const feed = await call(t, "GET", `${v1}/contractor/events?limit=200`, { "x-api-key": world.secondKey });
      const items = (feed.body as { items: components["schemas"]["ContractorEvent"][] }).items;
      assert.deepEqual(
        items.filter((e) => e.data.order_id === id).map((e) => e.type),
        ["offer.created"],
      );
    });

    it("re-offers a job given back (unable_to_attend) at the customer's price, order.assigned carrying the window", async () => {
      const { id } = await heldOrder("promise-give-back");
      const before = await orderOf(t, world.customer, id);
      const given = await report(id, { status: "unable_to_attend", reason: "vehicle_breakdown" });
      assert.equal(given.status, 200, JSON.stringify(given.body));
      const order = await orderOf(t, world.customer, id);
      assert.equal(order.assigned_contractor_ref, world.second.ref);
      assert.equal(order.quoted_cost_cents, before.quoted_cost_cents, "the customer pays what it was quoted");
      const events = await sameEverywhere(id);
      const assigned = events.filter((e) => e.type === "order.assigned").at(-1)!;
      assert.deepEqual(
        [assigned.data.reassigned, assigned.data.quoted_cost_cents, assigned.data.arrival_window],
        [true, before.quoted_cost_cents, order.arrival_window],
      );
      const moved = Date.parse(order.arrival_window!.start) !== Date.parse(before.arrival_window!.start);
      assert.equal(events.at(-1)!.type, moved ? "order.rescheduled" : "order.assigned");
    });
  });
}
