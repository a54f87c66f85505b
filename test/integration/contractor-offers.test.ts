// The contractor side (services/dispatch/offers/): contractor keys bound to one contractor and one environment,
// offers opened with every assignment, listed and answered by the contractor they were made to; a decline or a
// passed deadline re-offers the job to the next contractor, else the order waits for the dispatcher again; an offer
// shows the street and the order's status only to the contractor holding the job (not after a give-back or a
// decline); a deactivated contractor accepts nothing and its open offers are withdrawn for the next contractor; and
// one answer per offer when answers race each other, the expiry sweep, and two instances.
import assert from "node:assert/strict";
import {
  admin,
  alaskaOrder,
  answerOffer as answer,
  call,
  contractorKey,
  offeredOrder as newOfferedOrder,
  orderOf,
  plumber,
  startContractorWorld,
} from "../helpers/contractors.js";
import {
  databases,
  postgresDatabase,
  startTestServer,
  twoInstancesOfOnePostgres,
  type ServerTarget,
  type TestServer,
} from "../helpers/server.js";
import { untilValue } from "../helpers/wait.js";
import { now } from "../../server/services/shared/clock.js";

interface Offer {
  id: string;
  status: string;
  respond_by: string;
  decline_reason: string | null;
  job: {
    order_id: string;
    status: string;
    location: Record<string, string>;
    quoted_cost_cents: number | null;
    arrival_window: { start: string; end: string } | null;
    nte_cents: number | null;
    time_zone: string;
  };
}

const offersOf = async (t: ServerTarget, key: string, query = "") => {
  const page = await call(t, "GET", `/api/dispatch/v1/contractor/offers${query}`, { "x-api-key": key });
  assert.equal(page.status, 200, JSON.stringify(page.body));
  return page.body.items as Offer[];
};
const eventsOf = async (t: TestServer, orderId: string) =>
  t.app.services.db("order_events").where({ order_id: orderId }).orderBy("id").select("type", "status", "data");

for (const target of databases()) {
  describe(`contractor offers (${target.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let customer: string;
    let first: { id: string; ref: string };
    let second: { id: string; ref: string };
    let firstKey: string;
    let secondKey: string;
    let serial = 0;

    /** A new AK order: offered to `first` (the cheaper plumber ranks first). */
    async function offeredOrder() {
      const { orderId } = await newOfferedOrder(t, customer, `ofr-${++serial}`);
      const offer = (await offersOf(t, firstKey, "?status=offered")).find((o) => o.job.order_id === orderId);
      assert.ok(offer, "the first plumber holds the offer");
      return { orderId, offer };
    }

    before(async () => {
      ({ t, customer, first, second, firstKey, secondKey } = await startContractorWorld(target));
    });
    after(() => t?.stop());

    describe("createContractorKey()", () => {
      it("issues a live key in the usual format bound to the contractor, with the contractor scopes, audited", async () => {
        const issued = await contractorKey(t, first.id);
        assert.match(issued.key, /^dispatch_live_[0-9A-Za-z]{38}$/);
        assert.equal(issued.contractor_id, first.id);
        assert.deepEqual(issued.scopes, ["contractor:offers", "contractor:jobs"]);
        const audited = await t.app.services
          .db("audit_records")
          .where({ type: "key_issued", subject: issued.id })
          .first();
        assert.equal(JSON.parse(audited!.content).contractor_id, first.id);
      });
      it("answers 404 for an unknown contractor and 422 for a customer scope", async () => {
        const unknown = await call(t, "POST", "/api/admin/v1/contractors/ctr_nobody/keys", admin, {
          environment: "live",
        });
        assert.equal(unknown.status, 404);
        const body = { environment: "live", scopes: ["order"] };
        const mixed = await call(t, "POST", `/api/admin/v1/contractors/${first.id}/keys`, admin, body);
        assert.equal(mixed.status, 422);
      });
      it("refuses a contractor scope on a customer key (422)", async () => {
        const body = { account: "acme", environment: "live", scopes: ["quote", "contractor:offers"] };
        const refused = await call(t, "POST", "/api/admin/v1/keys", admin, body);
        assert.equal(refused.status, 422);
      });
    });

    describe("tenancy", () => {
      it("shows an offer only to its contractor, in its environment, without the customer or the street", async () => {
        const { orderId, offer } = await offeredOrder();
        assert.equal((await orderOf(t, customer, orderId)).assigned_contractor_ref, first.ref);
        assert.equal(offer.status, "offered");
        assert.deepEqual(offer.job.location, { state: "AK", city: "Anchorage", zip: "99501" });
        const text = JSON.stringify(offer);
        for (const hidden of ["acme", "ofr-", "1 Main St", "Back office", "callback_url", "reference_id"])
          assert.ok(!text.includes(hidden), `the offer shows ${hidden}`);
        assert.ok(!(await offersOf(t, secondKey)).some((o) => o.job.order_id === orderId));
        const testKey = (await contractorKey(t, first.id, "test")).key;
        assert.deepEqual(await offersOf(t, testKey), []);
        assert.equal((await answer(t, secondKey, offer.id, "accept")).status, 404);
        assert.equal((await answer(t, testKey, offer.id, "accept")).status, 404);
      });
      it("hides the street and the order's status from a contractor that gave the job back", async () => {
        const { orderId, offer } = await offeredOrder();
        assert.equal((await answer(t, firstKey, offer.id, "accept")).status, 200);
        const status = (key: string, body: unknown) =>
          call(t, "POST", `/api/dispatch/v1/contractor/jobs/${orderId}/status`, { "x-api-key": key }, body);
        const gone = await status(firstKey, { status: "unable_to_attend", reason: "emergency" });
        assert.equal(gone.status, 200, JSON.stringify(gone.body));
        const answered = (gone.body as unknown as { job: Offer["job"] }).job;
        assert.deepEqual(
          [answered.location, answered.status],
          [{ state: "AK", city: "Anchorage", zip: "99501" }, "pending_dispatch"],
        );
        const next = (await offersOf(t, secondKey, "?status=offered")).find((o) => o.job.order_id === orderId)!;
        assert.equal((await answer(t, secondKey, next.id, "accept")).status, 200);
        const enRoute = { status: "en_route", estimated_arrival_at: new Date(now() + 1_800_000).toISOString() };
        assert.equal((await status(secondKey, enRoute)).status, 200);
        const old = (await offersOf(t, firstKey)).find((o) => o.id === offer.id)!;
        assert.deepEqual(
          [old.status, old.job.location, old.job.status],
          ["accepted", { state: "AK", city: "Anchorage", zip: "99501" }, "pending_dispatch"],
        );
        assert.ok(!JSON.stringify(old).includes("1 Main St"));
        const holder = (await offersOf(t, secondKey)).find((o) => o.id === next.id)!;
        assert.deepEqual([holder.job.location.address, holder.job.status], ["1 Main St", "en_route"]);
      });
      it("shows a declined offer's job as it was offered, not where it went after", async () => {
        const { orderId, offer } = await offeredOrder();
        assert.equal((await answer(t, firstKey, offer.id, "decline", { reason: "too_far" })).status, 200);
        const next = (await offersOf(t, secondKey, "?status=offered")).find((o) => o.job.order_id === orderId)!;
        assert.equal((await answer(t, secondKey, next.id, "accept")).status, 200);
        const declined = (await offersOf(t, firstKey)).find((o) => o.id === offer.id)!;
        assert.deepEqual([declined.status, declined.job.status], ["declined", "pending_dispatch"]);
        assert.equal((await orderOf(t, customer, orderId)).status, "dispatched");
        // its price and window are the ones it was offered, never the next contractor's
        assert.deepEqual(
          [declined.job.quoted_cost_cents, declined.job.arrival_window],
          [offer.job.quoted_cost_cents, offer.job.arrival_window],
        );
        // the next contractor is offered the customer's price: a re-assignment keeps it (docs/decisions.md)
        assert.equal(next.job.quoted_cost_cents, offer.job.quoted_cost_cents);
      });
      it("shows what a technician decides from: trade, city and ZIP, the window in the job's zone, price, NTE, respond-by", async () => {
        const { offer } = await offeredOrder();
        assert.deepEqual(
          [offer.job.location, offer.job.nte_cents, offer.job.time_zone],
          [{ state: "AK", city: "Anchorage", zip: "99501" }, 100_000, "America/Anchorage"],
        );
        assert.match(offer.job.arrival_window!.start, /-0[89]:00$/);
        assert.ok(offer.job.quoted_cost_cents! > 0);
        assert.ok(Date.parse(offer.respond_by) > now());
      });
      it("answers a decline with the offer as the decliner was offered it, not the next contractor's terms", async () => {
        const { orderId, offer } = await offeredOrder();
        const declined = await answer(t, firstKey, offer.id, "decline", { reason: "price_too_low" });
        assert.equal(declined.status, 200, JSON.stringify(declined.body));
        const view = declined.body as unknown as Offer;
        const next = (await offersOf(t, secondKey, "?status=offered")).find((o) => o.job.order_id === orderId)!;
        assert.deepEqual(
          [view.job.quoted_cost_cents, view.job.arrival_window],
          [offer.job.quoted_cost_cents, offer.job.arrival_window],
        );
        const order = await orderOf(t, customer, orderId);
        // the order keeps the customer's price, and the next contractor is offered it (docs/decisions.md)
        assert.deepEqual(
          [order.quoted_cost_cents, next.job.quoted_cost_cents],
          [offer.job.quoted_cost_cents, offer.job.quoted_cost_cents],
        );
        assert.equal(view.status, "declined");
      });
      it("refuses customer keys on contractor operations and contractor keys on customer ones (403)", async () => {
        const { offer } = await offeredOrder();
        const asCustomer = await call(t, "GET", "/api/dispatch/v1/contractor/offers", { "x-api-key": customer });
        assert.equal(asCustomer.status, 403);
        assert.equal(asCustomer.body.code, "insufficient_scope");
        assert.equal(asCustomer.body.key_kind, "customer"); // for a client to say which commands fit the key
        // each is told which key it is and what it does call: the other key of the two is the usual mistake
        assert.equal(
          asCustomer.body.detail,
          "This is a customer key (it calls createQuote, createOrder, listOrders, getOrder and 15 more): " +
            "listContractorOffers is a contractor's operation and takes a contractor key with the contractor:offers " +
            "scope, which an operator issues with createContractorKey.",
        );
        assert.equal((await answer(t, customer, offer.id, "accept")).status, 403);
        const mine = { "x-api-key": firstKey };
        for (const [method, path, body] of [
          ["GET", "/api/dispatch/v1/orders", undefined],
          ["GET", `/api/dispatch/v1/orders/${offer.job.order_id}`, undefined],
          ["POST", "/api/dispatch/v1/order", alaskaOrder("from-a-contractor")],
          ["GET", "/api/dispatch/v1/events", undefined],
          ["POST", "/api/dispatch/v1/quote", { trade: "plumbing", location: { state: "AK" } }],
        ] as const) {
          const refused = await call(t, method, path, mine, body);
          assert.equal(refused.status, 403, `${method} ${path}: ${JSON.stringify(refused.body)}`);
          assert.equal(refused.body.code, "insufficient_scope");
          assert.equal(refused.body.key_kind, "contractor");
          assert.match(
            String(refused.body.detail),
            /^This is a contractor key: it calls the contractor's operations \(listContractorOffers, acceptOffer, declineOffer, listContractorJobs, updateJobStatus, rescheduleJob, listJobWindows, requestPriceRevision, listContractorEvents\), not \w+, which takes a customer key with the [a-z:]+ scope\.$/,
          );
        }
        // a customer key short of a customer scope is on its own side: no key_kind
        const quoteOnly = (await t.issueKey({ account: "quote-only", scopes: ["quote"] })).key;
        const short = await call(t, "GET", "/api/dispatch/v1/orders", { "x-api-key": quoteOnly });
        assert.deepEqual([short.status, short.body.code, short.body.key_kind], [403, "insufficient_scope", undefined]);
      });
      it("refuses contractor keys on the MCP and A2A endpoints", async () => {
        const rpc = { jsonrpc: "2.0", id: 1, method: "tools/list" };
        const accept = "application/json, text/event-stream";
        const mcp = await call(t, "POST", "/api/mcp", { authorization: `Bearer ${firstKey}`, accept }, rpc);
        assert.equal(mcp.status, 403);
        const a2a = await call(t, "POST", "/api/a2a", { "x-api-key": firstKey }, { ...rpc, method: "tasks/get" });
        assert.equal(a2a.status, 403);
      });
      it("refuses a revoked contractor key (401)", async () => {
        const issued = await contractorKey(t, first.id);
        assert.equal((await call(t, "DELETE", `/api/admin/v1/keys/${issued.id}`, admin)).status, 200);
        const page = await call(t, "GET", "/api/dispatch/v1/contractor/offers", { "x-api-key": issued.key });
        assert.equal(page.status, 401);
      });
    });

    describe("answers", () => {
      it("accept dispatches the order, emits order.assigned, shows the street, and a second accept is 409", async () => {
        const { orderId, offer } = await offeredOrder();
        const accepted = await answer(t, firstKey, offer.id, "accept");
        assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
        const view = accepted.body as unknown as Offer;
        assert.equal(view.status, "accepted");
        assert.equal(view.job.location.address, "1 Main St");
        assert.equal(view.job.status, "dispatched");
        assert.equal((await orderOf(t, customer, orderId)).status, "dispatched");
        const types = (await eventsOf(t, orderId)).map((e) => `${e.type}:${e.status}`);
        assert.deepEqual(types.slice(-2), ["order.status_changed:dispatched", "order.assigned:dispatched"]);
        const again = await answer(t, firstKey, offer.id, "accept");
        assert.equal(again.status, 409);
        assert.equal(again.body.code, "offer_closed");
        const audit = await t.app.services
          .db("audit_records")
          .where({ type: "offer", subject: orderId })
          .orderBy("position");
        assert.deepEqual(audit.map((r) => JSON.parse(r.content).step as string).sort(), ["accepted", "offered"]);
      });
      it("decline re-offers to the next contractor, and a decline by the last one returns the order to the queue", async () => {
        const { orderId, offer } = await offeredOrder();
        const declined = await answer(t, firstKey, offer.id, "decline", { reason: "no_capacity" });
        assert.equal(declined.status, 200, JSON.stringify(declined.body));
        assert.equal((declined.body as unknown as Offer).decline_reason, "no_capacity");
        const order = await orderOf(t, customer, orderId);
        assert.equal(order.status, "pending_dispatch");
        assert.equal(order.assigned_contractor_ref, second.ref);
        const events = await eventsOf(t, orderId);
        assert.deepEqual(events.at(-1), {
          type: "order.assigned",
          status: "pending_dispatch",
          data: events.at(-1)!.data,
        });
        assert.equal(JSON.parse(JSON.stringify(events.at(-1)!.data)).reassigned ?? true, true);
        const next = (await offersOf(t, secondKey, "?status=offered")).find((o) => o.job.order_id === orderId)!;
        assert.equal((await answer(t, firstKey, offer.id, "accept")).status, 409);
        assert.equal((await answer(t, secondKey, next.id, "decline", { reason: "too_far" })).status, 200);
        const queued = await orderOf(t, customer, orderId);
        assert.equal(queued.status, "accepted_pending_fulfilment");
        assert.equal(queued.assigned_contractor_ref, null);
        const seats = await t.app.services.db("contractor_bookings").where({ order_id: orderId });
        assert.deepEqual(seats, []);
        // the dispatcher does not offer it again to either
        t.app.services.dispatcher.nudge();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        assert.equal((await orderOf(t, customer, orderId)).status, "accepted_pending_fulfilment");
      });
      it("a passed deadline is 409 offer_expired, and the sweep re-offers the job", async () => {
        const { orderId, offer } = await offeredOrder();
        const deadlines = t.app.services.config.offerDeadlineMinutes;
        assert.equal(Date.parse(offer.respond_by) - now() <= deadlines.urgent * 60_000, true);
        await t.app.services
          .db("order_offers")
          .where({ id: offer.id })
          .update({ deadline_at: new Date(now() - 1000) });
        const late = await answer(t, firstKey, offer.id, "accept");
        assert.equal(late.status, 409);
        assert.equal(late.body.code, "offer_expired");
        t.app.services.dispatcher.nudge();
        const ref = await untilValue(
          async () => {
            const view = await orderOf(t, customer, orderId);
            return view.assigned_contractor_ref === second.ref ? view.assigned_contractor_ref : undefined;
          },
          { timeoutMs: 10_000, intervalMs: 100, message: "the job re-offered" },
        );
        assert.equal(ref, second.ref);
        const expired = await t.app.services.db("order_offers").where({ id: offer.id }).first();
        assert.equal(expired!.status, "expired");
      });
      it("refuses a deactivated contractor's accept (409 contractor_inactive); the sweep withdraws its offers", async () => {
        // its own server: workers stopped while the accept is refused, and no sweep but the nudged ones after
        const own = await startTestServer(target, { DISPATCHER_INTERVAL_MS: "60000" });
        try {
          const buyer = (await own.issueKey({ account: "acme", environment: "live" })).key;
          const [cheap, dear] = [
            await plumber(own, "Cheap Inactive", 8000),
            await plumber(own, "Dear Inactive", 12_000),
          ];
          const keys = [(await contractorKey(own, cheap.id)).key, (await contractorKey(own, dear.id)).key];
          const deactivate = async (id: string) => {
            const patched = await call(own, "PATCH", `/api/admin/v1/contractors/${id}`, admin, { active: false });
            assert.equal(patched.status, 200);
          };
          await own.app.services.workers.stop();
          const first = await newOfferedOrder(own, buyer, "inactive-1");
          assert.equal(first.offer.contractor_id, cheap.id);
          await deactivate(cheap.id);
          const refused = await answer(own, keys[0], first.offer.id, "accept");
          assert.deepEqual([refused.status, refused.body.code], [409, "contractor_inactive"]);
          assert.equal((await orderOf(own, buyer, first.orderId)).status, "pending_dispatch");
          own.app.services.workers.start(
            own.url,
            () => () => undefined,
            () => undefined,
          );
          const moved = await untilValue(
            async () => (await offersOf(own, keys[1], "?status=offered")).find((o) => o.job.order_id === first.orderId),
            { timeoutMs: 10_000, intervalMs: 100, message: "the job offered to the next contractor" },
          );
          assert.equal((await offersOf(own, keys[0])).find((o) => o.id === first.offer.id)?.status, "withdrawn");
          assert.equal((await answer(own, keys[1], moved.id, "accept")).status, 200);
          const audit = await own.app.services
            .db("audit_records")
            .where({ type: "offer", subject: first.orderId })
            .orderBy("position");
          assert.ok(audit.some((r) => JSON.parse(r.content).step === "withdrawn"));
          // with the workers running, a deactivation's nudge withdraws at once (the interval's sweep is a minute off)
          const second = await newOfferedOrder(own, buyer, "inactive-2");
          assert.equal(second.offer.contractor_id, dear.id);
          await deactivate(dear.id);
          await untilValue(
            async () =>
              (await orderOf(own, buyer, second.orderId)).status === "accepted_pending_fulfilment" ? true : undefined,
            { timeoutMs: 5_000, intervalMs: 100, message: "the offer withdrawn and the order queued" },
          );
          const row = await own.app.services.db("order_offers").where({ id: second.offer.id }).first();
          assert.equal(row!.status, "withdrawn");
        } finally {
          await own.stop();
        }
      });
      it("an operator's dispatch withdraws the open offer", async () => {
        const { orderId, offer } = await offeredOrder();
        const moved = await call(t, "POST", `/api/admin/v1/orders/${orderId}/events`, admin, { status: "dispatched" });
        assert.equal(moved.status, 201, JSON.stringify(moved.body));
        const row = await t.app.services.db("order_offers").where({ id: offer.id }).first();
        assert.equal(row!.status, "withdrawn");
        assert.equal((await answer(t, firstKey, offer.id, "accept")).body.code, "offer_closed");
      });
    });
  });
}

describe("contractor offers under races (two instances on one Postgres)", function () {
  this.timeout(120_000);
  if (!postgresDatabase()) return;
  const servers = twoInstancesOfOnePostgres();
  let customer: string;
  let keys: string[];

  before(async () => {
    const { a } = servers;
    customer = (await a.issueKey({ account: "acme", environment: "live" })).key;
    const made = [await plumber(a, "Race Plumbing One", 8000), await plumber(a, "Race Plumbing Two", 12_000)];
    keys = [(await contractorKey(a, made[0].id)).key, (await contractorKey(a, made[1].id)).key];
  });

  const offered = async (reference: string) => (await newOfferedOrder(servers.a, customer, reference)).offer;
  const keyOf = (offer: { contractor_id: string }, index: number) => keys[index];

  it("two accepts of one offer on two instances: exactly one wins, the order is dispatched once", async () => {
    for (let round = 0; round < 8; round++) {
      const offer = await offered(`race-accept-${round}`);
      const holder = (await servers.a.app.services.db("contractors").where({ id: offer.contractor_id }).first())!;
      const key = keyOf(offer, holder.name === "Race Plumbing One" ? 0 : 1);
      const answers = await Promise.all([
        answer(servers.a, key, offer.id, "accept"),
        answer(servers.b, key, offer.id, "accept"),
      ]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409]);
      const dispatched = await servers.a.app.services
        .db("order_events")
        .where({ order_id: offer.order_id, status: "dispatched", type: "order.status_changed" });
      assert.equal(dispatched.length, 1);
    }
  });

  it("an accept racing its expiry and a decline: one answer per offer, no job without an accepted offer", async () => {
    for (let round = 0; round < 8; round++) {
      const offer = await offered(`race-expiry-${round}`);
      const holder = (await servers.a.app.services.db("contractors").where({ id: offer.contractor_id }).first())!;
      const key = keyOf(offer, holder.name === "Race Plumbing One" ? 0 : 1);
      await servers.a.app.services
        .db("order_offers")
        .where({ id: offer.id })
        .update({ deadline_at: new Date(now() + 20) });
      await new Promise((resolve) => setTimeout(resolve, 15 + (round % 3) * 5));
      servers.b.app.services.dispatcher.nudge();
      const answers = await Promise.all([
        answer(servers.a, key, offer.id, "accept"),
        answer(servers.b, key, offer.id, "decline", { reason: "other" }),
      ]);
      assert.ok(answers.filter((r) => r.status === 200).length <= 1, JSON.stringify(answers));
      const won = answers.find((r) => r.status === 200);
      if (!won)
        assert.deepEqual(
          answers.map((r) => r.body.code),
          ["offer_expired", "offer_expired"],
        );
      // unanswered, the offer stays open past its deadline until a sweep (either instance's) expires it
      const row = await untilValue(
        async () => {
          const read = await servers.a.app.services.db("order_offers").where({ id: offer.id }).first();
          return read?.status === "offered" ? undefined : read;
        },
        { timeoutMs: 10_000, intervalMs: 50, message: "the offer answered or expired" },
      );
      const order = (await servers.a.app.services.db("orders").where({ id: offer.order_id }).first())!;
      if (won) assert.equal((won.body as { status: string }).status, row.status);
      else assert.equal(row.status, "expired");
      if (order.status === "dispatched") assert.equal(row.status, "accepted");
    }
    // no dispatched order of this suite lacks an accepted offer
    const orphans = await servers.a.app.services
      .db("orders")
      .where({ status: "dispatched" })
      .whereRaw("not exists (select 1 from order_offers f where f.order_id = orders.id and f.status = 'accepted')");
    assert.deepEqual(orphans, []);
    const open = await servers.a.app.services
      .db("order_offers")
      .where({ status: "offered" })
      .groupBy("order_id")
      .havingRaw("count(*) > 1")
      .select("order_id");
    assert.deepEqual(open, []);
  });
});
