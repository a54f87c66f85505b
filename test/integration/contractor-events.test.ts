// The contractor feed (listContractorEvents, services/contractor-feed): a contractor reads the events of its own
// offers and jobs — offered, withdrawn, cancelled, moved or re-estimated by someone else, its price revision
// resolved — written once with only what it may see then; never the customer, never another contractor's offer,
// price or window. Pairwise: contractor A vs B, contractor vs customer keys both ways, test vs live, account vs
// account, scopes and revoked keys. The page and the SSE stream carry the same bytes for the same events.
import assert from "node:assert/strict";
import type { components } from "../../sdk/generated/openapi.js";
import { admin, answerOffer, call, contractorKey, offeredOrder, startContractorWorld } from "../helpers/contractors.js";
import { alaskaOrder, windowsOf } from "../helpers/contractors.js";
import { databases, type TestServer } from "../helpers/server.js";
import { openSse, type SseClient } from "../helpers/sse.js";
import { until } from "../helpers/wait.js";
import { installClock } from "../../server/services/shared/clock.js";

type ContractorEvent = components["schemas"]["ContractorEvent"];
const v1 = "/api/dispatch/v1";

/** The whole feed of `key` (every page), as the server answered it. */
async function feedOf(t: TestServer, key: string): Promise<ContractorEvent[]> {
  const items: ContractorEvent[] = [];
  for (let after = "cev_0"; ;) {
    const page = await call(t, "GET", `${v1}/contractor/events?limit=200&after=${after}`, { "x-api-key": key });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    const got = page.body.items as ContractorEvent[];
    items.push(...got);
    if (got.length < 200) return items;
    after = page.body.next_after as string;
  }
}
const ofOrder = (events: ContractorEvent[], orderId: string) => events.filter((e) => e.data.order_id === orderId);
const typesOf = (events: ContractorEvent[]) => events.map((e) => e.type);

/** The first bookable window of the order's contractor other than its own, in the job's offset. */
const otherWindow = async (t: TestServer, orderId: string) => (await windowsOf(t, orderId)).bookable[0];

for (const db of databases()) {
  describe(`contractor events (${db.name})`, function () {
    this.timeout(120_000);
    let world: Awaited<ReturnType<typeof startContractorWorld>>;
    let t: TestServer;
    before(async () => {
      world = await startContractorWorld(db);
      t = world.t;
    });
    after(() => t?.stop());

    const customerCall = (method: string, path: string, body?: unknown) =>
      call(t, method, `${v1}${path}`, { "x-api-key": world.customer }, body);

    describe("offers", () => {
      it("offers a job with its place but no street; a decliner never sees the next contractor's offer", async () => {
        const { orderId, offer } = await offeredOrder(t, world.customer, "feed-decline");
        assert.equal(offer.contractor_id, world.first.id);
        const [created] = ofOrder(await feedOf(t, world.firstKey), orderId);
        assert.equal(created.type, "offer.created");
        assert.equal(created.data.offer_id, offer.id);
        assert.equal(created.data.respond_by, new Date(offer.deadline_at).toISOString());
        assert.deepEqual(created.data.job?.location, { state: "AK", city: "Anchorage", zip: "99501" });
        const order = (await t.app.services.db("orders").where({ id: orderId }).first())!;
        assert.equal(created.data.job?.quoted_cost_cents, order.quoted_cost_cents);

        assert.equal(
          (await answerOffer(t, world.firstKey, offer.id, "decline", { reason: "no_capacity" })).status,
          200,
        );
        const next = await t.app.services.db("order_offers").where({ order_id: orderId, status: "offered" }).first();
        assert.equal(next?.contractor_id, world.second.id);
        const moved = (await t.app.services.db("orders").where({ id: orderId }).first())!;
        const mine = ofOrder(await feedOf(t, world.firstKey), orderId);
        assert.deepEqual(typesOf(mine), ["offer.created"], "its own decline is not repeated to it");
        const text = JSON.stringify(mine);
        assert.ok(!text.includes(next.id), "no trace of the next contractor's offer");
        assert.equal(moved.quoted_cost_cents, order.quoted_cost_cents, "the re-assignment keeps the customer's price");
        const theirs = ofOrder(await feedOf(t, world.secondKey), orderId);
        assert.deepEqual(typesOf(theirs), ["offer.created"]);
        assert.equal(theirs[0].data.offer_id, next.id);
        assert.equal(theirs[0].data.job?.quoted_cost_cents, moved.quoted_cost_cents);
        assert.ok(!JSON.stringify(theirs).includes(offer.id), "nor the first contractor's offer to the second");
      });

      it("offers a job whose description is at its bound in four-byte characters whole", async () => {
        const description = "🔧".repeat(5000);
        const body = { ...alaskaOrder("feed-long"), description };
        const made = await call(t, "POST", `${v1}/order`, { "x-api-key": world.customer }, body);
        assert.equal(made.status, 201, JSON.stringify(made.body).slice(0, 300));
        const orderId = (made.body.order as { id: string }).id;
        const [created] = ofOrder(await feedOf(t, world.firstKey), orderId);
        assert.equal(created.data.job?.description, description);
      });

      it("withdraws an open offer when the customer cancels the order", async () => {
        const { orderId, offer } = await offeredOrder(t, world.customer, "feed-cancel-open");
        assert.equal(
          (await customerCall("POST", `/orders/${orderId}/cancel`, { reason: "customer_request" })).status,
          200,
        );
        const mine = ofOrder(await feedOf(t, world.firstKey), orderId);
        assert.deepEqual(typesOf(mine), ["offer.created", "offer.withdrawn"]);
        assert.equal(mine[1].data.reason, "cancelled");
        assert.equal(mine[1].data.offer_id, offer.id);
      });
    });

    describe("offer deadlines", () => {
      it("an offer left unanswered past respond_by is withdrawn as expired, and the next contractor is offered", async () => {
        const { orderId, offer } = await offeredOrder(t, world.customer, "feed-expiry");
        assert.equal(offer.contractor_id, world.first.id);
        // business time moves past respond_by; the dispatcher's sweep (every second here) expires the offer
        const shift = new Date(offer.deadline_at).getTime() - Date.now() + 60_000;
        const restore = installClock({ now: () => Date.now() + shift });
        try {
          // the expiry, then (in a transaction of its own) the re-offer to the next contractor
          const settled = async () =>
            ofOrder(await feedOf(t, world.firstKey), orderId).length === 2 &&
            ofOrder(await feedOf(t, world.secondKey), orderId).length === 1;
          await until(settled, { timeoutMs: 30_000, intervalMs: 200, message: "the expiry and the re-offer" });
        } finally {
          restore();
        }
        const mine = ofOrder(await feedOf(t, world.firstKey), orderId);
        assert.deepEqual(typesOf(mine), ["offer.created", "offer.withdrawn"]);
        assert.equal(mine[1].data.reason, "expired");
        assert.ok(new Date(mine[1].data.at) >= new Date(offer.deadline_at), "expired at its deadline, not before");
        const theirs = ofOrder(await feedOf(t, world.secondKey), orderId);
        assert.equal(theirs[0]?.type, "offer.created", "the job went to the next contractor");
        assert.ok(!JSON.stringify(mine).includes(theirs[0].data.offer_id));
      });
    });

    describe("append-only", () => {
      it("the table refuses to change or delete an event once written", async () => {
        const { db: knex } = t.app.services;
        const [row] = await knex("contractor_events").whereNotNull("seq").orderBy("id").limit(1).select("id");
        await assert.rejects(
          knex("contractor_events").where({ id: row.id }).update({ type: "job.cancelled" }),
          /append-only/,
        );
        await assert.rejects(knex("contractor_events").where({ id: row.id }).update({ seq: 999_999 }), /append-only/);
        await assert.rejects(knex("contractor_events").where({ id: row.id }).delete(), /append-only/);
      });
    });

    describe("jobs", () => {
      it("tells the holder of a customer's move and the ETA it set, but not its own move", async () => {
        const { orderId, offer } = await offeredOrder(t, world.customer, "feed-moves");
        assert.equal((await answerOffer(t, world.firstKey, offer.id, "accept")).status, 200);
        const window = await otherWindow(t, orderId);
        const moved = await customerCall("POST", `/orders/${orderId}/reschedule`, { arrival_window: window });
        assert.equal(moved.status, 200, JSON.stringify(moved.body));
        const back = await otherWindow(t, orderId);
        const own = await call(
          t,
          "POST",
          `${v1}/contractor/jobs/${orderId}/reschedule`,
          { "x-api-key": world.firstKey },
          { arrival_window: back },
        );
        assert.equal(own.status, 200, JSON.stringify(own.body));
        const mine = ofOrder(await feedOf(t, world.firstKey), orderId);
        const rescheduled = mine.filter((e) => e.type === "job.rescheduled");
        assert.equal(rescheduled.length, 1, "the customer's move only");
        assert.deepEqual(rescheduled[0].data.arrival_window, window);
        assert.equal(rescheduled[0].data.offer_id, offer.id);
        const etas = mine.filter((e) => e.type === "job.eta_updated");
        assert.ok(etas.every((e) => e.data.eta?.source !== "contractor"));
        assert.deepEqual(ofOrder(await feedOf(t, world.secondKey), orderId), [], "another contractor hears nothing");
      });

      it("tells the holder its revision was declined, then that its job was cancelled", async () => {
        const { orderId, offer } = await offeredOrder(t, world.customer, "feed-revision");
        assert.equal((await answerOffer(t, world.firstKey, offer.id, "accept")).status, 200);
        const asked = await call(
          t,
          "POST",
          `${v1}/contractor/jobs/${orderId}/price-revisions`,
          { "x-api-key": world.firstKey },
          { amount_cents: 150_000, reason: "The valve must be replaced too." },
        );
        assert.equal(asked.status, 201, JSON.stringify(asked.body));
        const revision = asked.body.id as string;
        assert.equal(
          (await customerCall("POST", `/orders/${orderId}/price-revisions/${revision}/decline`)).status,
          200,
        );
        assert.equal((await customerCall("POST", `/orders/${orderId}/cancel`, { reason: "other" })).status, 200);
        const mine = ofOrder(await feedOf(t, world.firstKey), orderId);
        assert.deepEqual(typesOf(mine), ["offer.created", "job.price_revision_resolved", "job.cancelled"]);
        assert.equal(mine[1].data.price_revision?.id, revision);
        assert.equal(mine[1].data.price_revision?.status, "declined");
        assert.equal(mine[2].data.offer_id, offer.id);
      });
    });

    describe("isolation", () => {
      it("contractor A and contractor B each read only events of their own offers", async () => {
        for (const [key, contractor] of [
          [world.firstKey, world.first.id],
          [world.secondKey, world.second.id],
        ] as const) {
          const events = await feedOf(t, key);
          assert.ok(events.length > 0);
          const offers = await t.app.services
            .db("order_offers")
            .whereIn(
              "id",
              events.map((e) => e.data.offer_id),
            )
            .select("contractor_id");
          assert.deepEqual([...new Set(offers.map((o) => o.contractor_id))], [contractor]);
        }
      });

      it("a customer key is refused the contractor feed and a contractor key the customer's (403), both ways", async () => {
        const refused = await customerCall("GET", "/contractor/events");
        assert.equal(refused.status, 403);
        assert.equal(refused.body.code, "insufficient_scope");
        const stream = await openSse(`${t.url}${v1}/contractor/events`, { "x-api-key": world.customer });
        assert.equal(stream.status, 403);
        stream.close();
        for (const path of ["/events", "/orders"]) {
          const other = await call(t, "GET", `${v1}${path}`, { "x-api-key": world.firstKey });
          assert.equal(other.status, 403, path);
        }
      });

      it("accounts: another account's order reaches the contractor with no trace of either customer", async () => {
        const globex = (await t.issueKey({ account: "globex", environment: "live" })).key;
        const made = await call(t, "POST", `${v1}/order`, { "x-api-key": globex }, alaskaOrder("globex-secret-ref"));
        assert.equal(made.status, 201, JSON.stringify(made.body));
        const orderId = (made.body.order as { id: string }).id;
        const events = await feedOf(t, world.firstKey);
        assert.equal(ofOrder(events, orderId).length, 1);
        const text = JSON.stringify(events);
        for (const secret of ["acme", "globex", "globex-secret-ref", "feed-decline", "1 Main St", "Back office"])
          assert.ok(!text.includes(secret), `the feed shows ${secret}`);
        for (const key of [world.customer, globex]) assert.ok(!text.includes(key.slice(0, 18)));
      });

      it("test and live keys of one contractor each read only their environment's events", async () => {
        const testKey = (await contractorKey(t, world.first.id, "test")).key;
        const customerTest = (await t.issueKey({ account: "acme", environment: "test" })).key;
        const made = await call(t, "POST", `${v1}/order`, { "x-api-key": customerTest }, alaskaOrder("feed-test-env"));
        assert.equal(made.status, 201, JSON.stringify(made.body));
        const testOrder = (made.body.order as { id: string }).id;
        const inTest = await feedOf(t, testKey);
        const inLive = await feedOf(t, world.firstKey);
        assert.ok(ofOrder(inTest, testOrder).length > 0, "the test order's offer is in the test feed");
        assert.deepEqual(ofOrder(inLive, testOrder), [], "and not in the live one");
        const liveOrders = new Set(inLive.map((e) => e.data.order_id));
        assert.ok(
          inTest.every((e) => !liveOrders.has(e.data.order_id)),
          "no live event in the test feed",
        );
      });

      it("a key without contractor:offers is refused (403), and a revoked key is unauthorized (401)", async () => {
        const issued = await call(t, "POST", `/api/admin/v1/contractors/${world.first.id}/keys`, admin, {
          environment: "live",
          scopes: ["contractor:jobs"],
        });
        assert.equal(issued.status, 201, JSON.stringify(issued.body));
        const jobsOnly = issued.body.key as string;
        const refused = await call(t, "GET", `${v1}/contractor/events`, { "x-api-key": jobsOnly });
        assert.equal(refused.status, 403);
        assert.equal(refused.body.code, "insufficient_scope");
        assert.equal((await call(t, "DELETE", `/api/admin/v1/keys/${issued.body.id as string}`, admin)).status, 200);
        assert.equal((await call(t, "GET", `${v1}/contractor/events`, { "x-api-key": jobsOnly })).status, 401);
      });
    });

    describe("the page and the stream", () => {
      it("ends a contractor's stream within seconds of its key being revoked, with a last comment", async () => {
        const issued = await contractorKey(t, world.second.id);
        const stream = await openSse(`${t.url}${v1}/contractor/events`, { "x-api-key": issued.key });
        assert.equal(stream.status, 200);
        assert.equal((await call(t, "DELETE", `/api/admin/v1/keys/${issued.id}`, admin)).status, 200);
        await stream.ended;
        assert.deepEqual(stream.comments, ["stream open", "key revoked"]);
      });

      it("answers a contractor key's 11th concurrent stream 429 with Retry-After, and counts the open ones in metrics", async () => {
        const url = `${t.url}${v1}/contractor/events`;
        const gauge = async () => {
          const text = await (await fetch(`${t.url}/api/admin/v1/metrics`, { headers: admin })).text();
          return Number(/^dispatch_contractor_event_streams_open (\d+)$/m.exec(text)?.[1]);
        };
        await until(async () => (await gauge()) === 0, { timeoutMs: 10_000 });
        const { key } = await contractorKey(t, world.second.id);
        const open: SseClient[] = [];
        try {
          for (let i = 0; i < 10; i++) open.push(await openSse(url, { "x-api-key": key }));
          assert.deepEqual(new Set(open.map((s) => s.status)), new Set([200]));
          const refused = await fetch(url, { headers: { "x-api-key": key, accept: "text/event-stream" } });
          assert.equal(refused.status, 429);
          assert.ok(Number(refused.headers.get("retry-after")) > 0, "Retry-After");
          assert.equal(((await refused.json()) as { code: string }).code, "too_many_streams");
          assert.equal(await gauge(), 10);
        } finally {
          for (const stream of open) stream.close();
        }
        await until(async () => (await gauge()) === 0, { timeoutMs: 10_000 });
      });

      it("carry the same bytes for the same events, replayed and live, resuming after Last-Event-ID", async () => {
        const url = `${t.url}${v1}/contractor/events`;
        const headers = { "x-api-key": world.firstKey };
        const replayed = await openSse(url, { ...headers, "last-event-id": "cev_0" });
        assert.equal(replayed.status, 200);
        const { orderId } = await offeredOrder(t, world.customer, "feed-live");
        await customerCall("POST", `/orders/${orderId}/cancel`, { reason: "other" });
        const received = () => replayed.data.map((text) => JSON.parse(text) as ContractorEvent);
        await until(() => received().some((e) => e.data.order_id === orderId && e.type === "offer.withdrawn"));
        replayed.close();
        // the dispatcher may add events after the stream closed: the page begins with the stream's, byte for byte
        const page = await jsonPage(t, world.firstKey, "cev_0");
        assert.deepEqual(page.slice(0, replayed.data.length), replayed.data, "every event once, in feed order");

        const middle = replayed.events[Math.floor(replayed.events.length / 2)].id;
        const after = page.slice(page.findIndex((e) => e.includes(`"id":"${middle}"`)) + 1);
        const resumed = await openSse(url, { ...headers, "last-event-id": middle });
        await until(() => resumed.data.length >= after.length);
        resumed.close();
        assert.deepEqual(resumed.data.slice(0, after.length), after, "exactly the events after Last-Event-ID");
      });
    });
  });
}

/** The page's items after `after`, each as the JSON text the stream sends for it. */
async function jsonPage(t: TestServer, key: string, after: string): Promise<string[]> {
  const page = await call(t, "GET", `${v1}/contractor/events?limit=200&after=${after}`, { "x-api-key": key });
  return (page.body.items as unknown[]).map((item) => JSON.stringify(item));
}
