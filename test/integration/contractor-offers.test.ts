// The contractor side (services/dispatch/offers/): contractor keys bound to one contractor and one environment,
// offers opened with every assignment, listed and answered by the contractor they were made to; a decline or a
// passed deadline re-offers the job to the next contractor, else the order waits for the dispatcher again; and one
// answer per offer when answers race each other, the expiry sweep, and two instances.
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
  twoInstancesOfOnePostgres,
  type ServerTarget,
  type TestServer,
} from "../helpers/server.js";
import { untilValue } from "../helpers/wait.js";

interface Offer {
  id: string;
  status: string;
  respond_by: string;
  decline_reason: string | null;
  job: { order_id: string; status: string; location: Record<string, string> };
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
      it("refuses customer keys on contractor operations and contractor keys on customer ones (403)", async () => {
        const { offer } = await offeredOrder();
        const asCustomer = await call(t, "GET", "/api/dispatch/v1/contractor/offers", { "x-api-key": customer });
        assert.equal(asCustomer.status, 403);
        assert.equal(asCustomer.body.code, "insufficient_scope");
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
        }
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
        const audit = await t.app.services.db("audit_records").where({ type: "offer", subject: orderId });
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
        t.app.services.orders.nudgeDispatcher();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        assert.equal((await orderOf(t, customer, orderId)).status, "accepted_pending_fulfilment");
      });
      it("a passed deadline is 409 offer_expired, and the sweep re-offers the job", async () => {
        const { orderId, offer } = await offeredOrder();
        const deadlines = t.app.services.config.offerDeadlineMinutes;
        assert.equal(Date.parse(offer.respond_by) - Date.now() <= deadlines.urgent * 60_000, true);
        await t.app.services
          .db("order_offers")
          .where({ id: offer.id })
          .update({ deadline_at: new Date(Date.now() - 1000) });
        const late = await answer(t, firstKey, offer.id, "accept");
        assert.equal(late.status, 409);
        assert.equal(late.body.code, "offer_expired");
        t.app.services.orders.nudgeDispatcher();
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
        .update({ deadline_at: new Date(Date.now() + 20) });
      await new Promise((resolve) => setTimeout(resolve, 15 + (round % 3) * 5));
      servers.b.app.services.orders.nudgeDispatcher();
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
