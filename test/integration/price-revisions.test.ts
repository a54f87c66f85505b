// Price revisions (services/dispatch/revisions/): the contractor holding a job asks for more, the customer approves
// (the order's NTE becomes the amount, and completion up to it passes the NTE rule) or declines (the NTE stays, and
// completion above it is refused); an order held over its NTE at creation comes with a pending revision whose
// approval releases it to the dispatcher. One answer per revision when answers race; a pending revision is
// withdrawn when its contractor stops holding the job (a give-back) or the order ends (completed, cancelled), also
// when that races the customer's approval, and the contractor reads each outcome in its job's view; each principal
// sees only its own (accounts, environments, scopes, contractors); both events reach the order's callback_url and
// the audit log.
import assert from "node:assert/strict";
import { anchorageContractor, orderRequest } from "../fixtures/requests.js";
import { recordEvent, startReceiver } from "../fixtures/orders.js";
import { freePort } from "../../mocks/prism.js";
import { jsonRequest } from "../helpers/request.js";
import {
  adminToken,
  databases,
  postgresDatabase,
  startTestServer,
  twoInstancesOfOnePostgres,
  type ServerTarget,
  type TestServer,
} from "../helpers/server.js";
import { until, untilValue } from "../helpers/wait.js";
import { now } from "../../server/services/shared/clock.js";

interface Revision {
  id: string;
  order_id: string;
  status: string;
  requested_by: string;
  amount_cents: number;
  reason: string;
  nte_cents: number | null;
  resolved_at: string | null;
}
interface JobView {
  job: { order_id: string; status: string };
  price_revision: Revision | null;
}
interface OrderView {
  status: string;
  nte_cents: number | null;
  quoted_cost_cents: number | null;
  final_cost_cents: number | null;
  price_revision: Revision | null;
}

const admin = { authorization: `Bearer ${adminToken}` };
const call = async (t: ServerTarget, method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const response = await jsonRequest(t, method, path, { headers, body });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
};
const v1 = "/api/dispatch/v1";

/** An Anchorage plumber (nobody in the demo pool serves AK), working all week. */
async function plumber(t: ServerTarget, name: string, hourly: number) {
  const body = { ...anchorageContractor("plumbing", name), hourly_rate_cents: hourly };
  const created = await call(t, "POST", "/api/admin/v1/contractors", admin, body);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id as string;
}

async function contractorKey(t: ServerTarget, contractorId: string, environment: "live" | "test" = "live") {
  const issued = await call(t, "POST", `/api/admin/v1/contractors/${contractorId}/keys`, admin, { environment });
  assert.equal(issued.status, 201, JSON.stringify(issued.body));
  return issued.body.key as string;
}

const alaskaOrder = (reference: string, extra: Record<string, unknown> = {}) => ({
  ...orderRequest,
  location: { state: "AK", city: "Anchorage", zip: "99501", address: "1 Main St" },
  reference_id: reference,
  nte_cents: 100_000,
  ...extra,
});

const reason = "The shut-off valve is corroded and must be replaced as well.";

for (const target of databases()) {
  describe(`price revisions (${target.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let customer: string;
    let otherCustomer: string;
    let testCustomer: string;
    let firstKey: string;
    let secondKey: string;
    let firstTestKey: string;
    let serial = 0;

    const orderOf = async (id: string, key = customer) =>
      (await call(t, "GET", `${v1}/orders/${id}`, { "x-api-key": key })).body as unknown as OrderView;
    const ask = (id: string, body: unknown, key = firstKey) =>
      call(t, "POST", `${v1}/contractor/jobs/${id}/price-revisions`, { "x-api-key": key }, body);
    const answer = (id: string, revision: string, verb: "approve" | "decline", key = customer) =>
      call(t, "POST", `${v1}/orders/${id}/price-revisions/${revision}/${verb}`, { "x-api-key": key });
    const eventsOf = (orderId: string) =>
      t.app.services.db("order_events").where({ order_id: orderId }).orderBy("id").select("type", "status", "data");
    const report = (id: string, body: unknown, key = firstKey) =>
      call(t, "POST", `${v1}/contractor/jobs/${id}/status`, { "x-api-key": key }, body);
    const cancel = (id: string) =>
      call(t, "POST", `${v1}/orders/${id}/cancel`, { "x-api-key": customer }, { reason: "customer_request" });
    const jobOf = async (id: string, key = firstKey) => {
      const page = await call(t, "GET", `${v1}/contractor/jobs?limit=100`, { "x-api-key": key });
      return (page.body.items as JobView[]).find((item) => item.job.order_id === id);
    };
    /** The revision's resolved events' statuses, and whether a revision of the order is still pending. */
    const endings = async (orderId: string, revisionId: string) => {
      const resolved = (await eventsOf(orderId))
        .filter((e) => e.type === "order.price_revision_resolved")
        .map((e) => (e.data as { price_revision: Revision }).price_revision)
        .filter((r) => r.id === revisionId);
      const pending = await t.app.services.db("order_price_revisions").where({ order_id: orderId, status: "pending" });
      return { statuses: resolved.map((r) => r.status), pending: pending.length };
    };

    /** A new AK order offered to the first (cheaper) plumber; accepted by it unless `accept` is false. */
    async function job(extra: Record<string, unknown> = {}, accept = true) {
      const created = await call(
        t,
        "POST",
        `${v1}/order`,
        { "x-api-key": customer },
        alaskaOrder(`rev-${++serial}`, extra),
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = (created.body.order as { id: string }).id;
      if (!accept) return id;
      const offer = await t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first();
      const accepted = await call(t, "POST", `${v1}/contractor/offers/${offer!.id}/accept`, { "x-api-key": firstKey });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      return id;
    }
    /** A job with a pending revision of `amount` cents. */
    async function revised(amount = 150_000, extra: Record<string, unknown> = {}) {
      const id = await job(extra);
      const asked = await ask(id, { amount_cents: amount, reason });
      assert.equal(asked.status, 201, JSON.stringify(asked.body));
      return { id, revision: asked.body as unknown as Revision };
    }
    const walkToSite = async (id: string) => {
      for (const status of ["en_route", "on_site"]) assert.equal((await recordEvent(t, id, { status })).status, 201);
    };

    before(async () => {
      t = await startTestServer(target, {
        DISPATCHER_INTERVAL_MS: "1000",
        WEBHOOK_ALLOW_PRIVATE: "true",
        WEBHOOK_POLL_MS: "20",
      });
      customer = (await t.issueKey({ account: "acme", environment: "live" })).key;
      otherCustomer = (await t.issueKey({ account: "globex", environment: "live" })).key;
      testCustomer = (await t.issueKey({ account: "acme", environment: "test" })).key;
      const first = await plumber(t, "Cheap Anchorage Plumbing", 8000);
      const second = await plumber(t, "Dear Anchorage Plumbing", 12_000);
      firstKey = await contractorKey(t, first);
      secondKey = await contractorKey(t, second);
      firstTestKey = await contractorKey(t, first, "test");
    });
    after(() => t?.stop());

    describe("requestPriceRevision()", () => {
      it("opens a pending revision the order shows, with its event and audit record", async () => {
        const { id, revision } = await revised(150_000);
        assert.equal(revision.status, "pending");
        assert.equal(revision.requested_by, "contractor");
        assert.deepEqual([revision.amount_cents, revision.nte_cents, revision.reason], [150_000, 100_000, reason]);
        assert.equal(revision.resolved_at, null);
        assert.match(revision.id, /^prv_/);
        const order = await orderOf(id);
        assert.deepEqual(order.price_revision, revision);
        assert.equal(order.nte_cents, 100_000);
        const events = await eventsOf(id);
        const requested = events.filter((e) => e.type === "order.price_revision_requested");
        assert.equal(requested.length, 1);
        assert.deepEqual((requested[0].data as { price_revision: Revision }).price_revision, revision);
        const audit = await t.app.services
          .db("audit_records")
          .where({ type: "price_revision", subject: id })
          .orderBy("position");
        assert.deepEqual(
          audit.map((r) => [r.account, r.environment, JSON.parse(r.content).step]),
          [["acme", "live", "requested"]],
        );
      });
      it("answers 409 for a second pending revision, an amount that is not above, and an unaccepted offer", async () => {
        const { id } = await revised(150_000);
        const again = await ask(id, { amount_cents: 160_000, reason });
        assert.deepEqual([again.status, again.body.code], [409, "price_revision_pending"]);
        const fits = await job();
        const low = await ask(fits, { amount_cents: 100_000, reason });
        assert.deepEqual([low.status, low.body.code], [409, "price_revision_not_above"]);
        const offered = await job({}, false);
        const early = await ask(offered, { amount_cents: 150_000, reason });
        assert.deepEqual([early.status, early.body.code], [409, "order_not_revisable"]);
      });
      it("answers 409 order_not_revisable for an order an operator dispatched to it unaccepted, as its reports are 404", async () => {
        const id = await job({}, false);
        assert.equal((await recordEvent(t, id, { status: "dispatched" })).status, 201);
        const moved = await ask(id, { amount_cents: 150_000, reason });
        assert.deepEqual([moved.status, moved.body.code], [409, "order_not_revisable"]);
        const body = { status: "en_route", estimated_arrival_at: new Date(now() + 1_800_000).toISOString() };
        const report = await call(t, "POST", `${v1}/contractor/jobs/${id}/status`, { "x-api-key": firstKey }, body);
        assert.equal(report.status, 404, JSON.stringify(report.body));
      });
      it("refuses amounts and reasons outside the contract's bounds (422), storing nothing", async () => {
        const id = await job();
        for (const body of [
          { amount_cents: 0, reason },
          { amount_cents: 100_000_001, reason },
          { amount_cents: 150_000, reason: "x".repeat(1001) },
          { amount_cents: 150_000, reason: "" },
          { amount_cents: 150_000 },
        ])
          assert.equal((await ask(id, body)).status, 422, JSON.stringify(body));
        assert.equal((await orderOf(id)).price_revision, null);
      });
    });

    describe("approvePriceRevision() and declinePriceRevision()", () => {
      it("approval raises the NTE to the amount, and completion at the new amount passes the NTE rule", async () => {
        const { id, revision } = await revised(150_000);
        const approved = await answer(id, revision.id, "approve");
        assert.equal(approved.status, 200, JSON.stringify(approved.body));
        const view = approved.body as unknown as OrderView;
        assert.equal(view.nte_cents, 150_000);
        assert.equal(view.price_revision?.status, "approved");
        assert.ok(view.price_revision?.resolved_at);
        await walkToSite(id);
        const completed = await recordEvent(t, id, { status: "completed", final_cost_cents: 150_000 });
        assert.equal(completed.status, 201, await completed.text());
        const order = await orderOf(id);
        assert.deepEqual([order.status, order.final_cost_cents, order.nte_cents], ["completed", 150_000, 150_000]);
        const resolved = (await eventsOf(id)).filter((e) => e.type === "order.price_revision_resolved");
        assert.deepEqual(
          resolved.map((e) => (e.data as { price_revision: Revision }).price_revision.status),
          ["approved"],
        );
      });
      it("still refuses completion above the approved NTE", async () => {
        const { id, revision } = await revised(150_000);
        assert.equal((await answer(id, revision.id, "approve")).status, 200);
        await walkToSite(id);
        const over = await recordEvent(t, id, { status: "completed", final_cost_cents: 150_001 });
        assert.equal(over.status, 409);
        assert.equal(((await over.json()) as { code: string }).code, "over_nte");
      });
      it("a decline keeps the NTE: completion above it is refused, within it passes", async () => {
        const { id, revision } = await revised(150_000);
        const declined = await answer(id, revision.id, "decline");
        assert.equal(declined.status, 200, JSON.stringify(declined.body));
        const view = declined.body as unknown as OrderView;
        assert.deepEqual([view.nte_cents, view.price_revision?.status], [100_000, "declined"]);
        await walkToSite(id);
        const over = await recordEvent(t, id, { status: "completed", final_cost_cents: 150_000 });
        assert.equal(over.status, 409);
        const within = await recordEvent(t, id, { status: "completed", final_cost_cents: 100_000 });
        assert.equal(within.status, 201, await within.text());
        const audit = await t.app.services
          .db("audit_records")
          .where({ type: "price_revision", subject: id })
          .orderBy("position");
        assert.deepEqual(
          audit.map((r) => JSON.parse(r.content).step),
          ["requested", "declined"],
        );
      });
      it("lets the contractor ask again once the customer answered", async () => {
        const { id, revision } = await revised(150_000);
        assert.equal((await answer(id, revision.id, "decline")).status, 200);
        const again = await ask(id, { amount_cents: 120_000, reason });
        assert.equal(again.status, 201, JSON.stringify(again.body));
        assert.equal((await orderOf(id)).price_revision?.id, (again.body as { id: string }).id);
      });
      it("answers 409 price_revision_resolved to a second answer", async () => {
        const { id, revision } = await revised();
        assert.equal((await answer(id, revision.id, "approve")).status, 200);
        for (const verb of ["approve", "decline"] as const) {
          const second = await answer(id, revision.id, verb);
          assert.deepEqual([second.status, second.body.code], [409, "price_revision_resolved"]);
        }
      });
    });

    describe("races", () => {
      it("two approves: one wins, the other is 409, one resolved event", async () => {
        const { id, revision } = await revised(150_000);
        const answers = await Promise.all([answer(id, revision.id, "approve"), answer(id, revision.id, "approve")]);
        assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
        const resolved = (await eventsOf(id)).filter((e) => e.type === "order.price_revision_resolved");
        assert.equal(resolved.length, 1);
        assert.equal((await orderOf(id)).nte_cents, 150_000);
      });
      it("approve against decline: exactly one wins and the NTE follows the winner", async () => {
        const { id, revision } = await revised(150_000);
        const [approved, declined] = await Promise.all([
          answer(id, revision.id, "approve"),
          answer(id, revision.id, "decline"),
        ]);
        assert.deepEqual([approved.status, declined.status].sort(), [200, 409]);
        const order = await orderOf(id);
        assert.equal(order.nte_cents, approved.status === 200 ? 150_000 : 100_000);
        assert.equal(order.price_revision?.status, approved.status === 200 ? "approved" : "declined");
      });
      it("two requests at once: one pending revision", async () => {
        const id = await job();
        const asked = await Promise.all([
          ask(id, { amount_cents: 150_000, reason }),
          ask(id, { amount_cents: 160_000, reason }),
        ]);
        assert.deepEqual(asked.map((a) => a.status).sort(), [201, 409]);
        const pending = await t.app.services.db("order_price_revisions").where({ order_id: id, status: "pending" });
        assert.equal(pending.length, 1);
      });
    });

    describe("a revision outlives neither its holder nor its order", () => {
      it("a give-back withdraws its contractor's pending revision; the next holder's own is taken, the old one is 409", async () => {
        const { id, revision } = await revised(150_000);
        const gone = await report(id, { status: "unable_to_attend", reason: "vehicle_breakdown" });
        assert.equal(gone.status, 200, JSON.stringify(gone.body));
        const given = (gone.body as unknown as JobView).price_revision;
        assert.deepEqual([given?.id, given?.status], [revision.id, "withdrawn"]);
        assert.ok(given?.resolved_at);
        const types = (await eventsOf(id)).map((e) => `${e.type}:${e.status}`);
        assert.deepEqual(types.slice(types.indexOf("order.status_changed:pending_dispatch")), [
          "order.status_changed:pending_dispatch",
          "order.price_revision_resolved:pending_dispatch",
          "order.assigned:pending_dispatch",
        ]);
        assert.deepEqual(await endings(id, revision.id), { statuses: ["withdrawn"], pending: 0 });
        const offer = await t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first();
        const next = await call(t, "POST", `${v1}/contractor/offers/${offer!.id}/accept`, { "x-api-key": secondKey });
        assert.equal(next.status, 200, JSON.stringify(next.body));
        const late = await answer(id, revision.id, "approve");
        assert.deepEqual([late.status, late.body.code], [409, "price_revision_resolved"]);
        assert.deepEqual(
          [(await orderOf(id)).nte_cents, (await orderOf(id)).price_revision?.status],
          [100_000, "withdrawn"],
        );
        const own = await ask(id, { amount_cents: 160_000, reason }, secondKey);
        assert.equal(own.status, 201, JSON.stringify(own.body));
        assert.equal((await jobOf(id, secondKey))?.price_revision?.id, (own.body as { id: string }).id);
        const audit = await t.app.services
          .db("audit_records")
          .where({ type: "price_revision", subject: id })
          .orderBy("position");
        assert.deepEqual(
          audit.map((r) => `${JSON.parse(r.content).step}:${JSON.parse(r.content).reason ?? ""}`).sort(),
          [`requested:${reason}`, `requested:${reason}`, "withdrawn:contractor_left"],
        );
      });
      it("a completion withdraws a revision still pending, after the completion's events", async () => {
        const { id, revision } = await revised(150_000);
        await walkToSite(id);
        const done = await report(id, { status: "completed", final_cost_cents: 90_000 });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal((done.body as unknown as JobView).price_revision?.status, "withdrawn");
        const types = (await eventsOf(id)).map((e) => `${e.type}:${e.status}`);
        assert.deepEqual(types.slice(-3), [
          "order.status_changed:completed",
          "order.completed:completed",
          "order.price_revision_resolved:completed",
        ]);
        const late = await answer(id, revision.id, "approve");
        assert.deepEqual([late.status, late.body.code], [409, "price_revision_resolved"]);
        assert.deepEqual(await endings(id, revision.id), { statuses: ["withdrawn"], pending: 0 });
        assert.equal((await jobOf(id))?.price_revision?.status, "withdrawn");
      });
      it("a cancel withdraws the pending revision, and the contractor's job shows it", async () => {
        const { id, revision } = await revised(150_000);
        const cancelled = await cancel(id);
        assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
        assert.equal((cancelled.body as unknown as OrderView).price_revision?.status, "withdrawn");
        const job = await jobOf(id);
        assert.deepEqual([job?.job.status, job?.price_revision?.status], ["cancelled", "withdrawn"]);
        const late = await answer(id, revision.id, "decline");
        assert.deepEqual([late.status, late.body.code], [409, "price_revision_resolved"]);
        assert.deepEqual(await endings(id, revision.id), { statuses: ["withdrawn"], pending: 0 });
      });
      it("the contractor reads its revision's outcome in its job: pending, then approved or declined", async () => {
        for (const verb of ["approve", "decline"] as const) {
          const { id, revision } = await revised(150_000);
          assert.deepEqual((await jobOf(id))?.price_revision, revision);
          assert.equal((await answer(id, revision.id, verb)).status, 200);
          const seen = (await jobOf(id))?.price_revision;
          assert.deepEqual([seen?.id, seen?.status], [revision.id, `${verb}d`]);
        }
        const untouched = await job();
        assert.equal((await jobOf(untouched))?.price_revision, null);
      });
      it("withdraws, never approves, a revision left pending after its holder or its order (data from before)", async () => {
        const db = t.app.services.db;
        /** A pending revision of `contractorId` written straight to the table, as an older release left some. */
        const leftPending = async (orderId: string, contractorId: string) => {
          const id = `prv_LEFT${String(++serial).padStart(22, "0")}`;
          const row = { id, order_id: orderId, account: "acme", environment: "live", status: "pending" } as const;
          const asked = { requested_by: "contractor", amount_cents: 150_000, reason, nte_cents: 100_000 } as const;
          await db("order_price_revisions").insert({
            ...row,
            ...asked,
            contractor_id: contractorId,
            created_at: new Date(),
          });
          return id;
        };
        const gone = await job();
        const first = (await db("orders").where({ id: gone }).first())!.contractor_id!;
        assert.equal((await report(gone, { status: "unable_to_attend", reason: "other" })).status, 200);
        const stale = await leftPending(gone, first);
        const refused = await answer(gone, stale, "approve");
        assert.deepEqual([refused.status, refused.body.code], [409, "price_revision_resolved"]);
        assert.deepEqual(await endings(gone, stale), { statuses: ["withdrawn"], pending: 0 });
        assert.equal((await orderOf(gone)).nte_cents, 100_000);
        const done = await job();
        await walkToSite(done);
        assert.equal((await report(done, { status: "completed", final_cost_cents: 90_000 })).status, 200);
        const ended = await leftPending(done, first);
        const late = await answer(done, ended, "approve");
        assert.deepEqual([late.status, late.body.code], [409, "order_not_revisable"]);
        assert.deepEqual(await endings(done, ended), { statuses: ["withdrawn"], pending: 0 });
      });
      it("an order held over its NTE and cancelled withdraws the service's revision", async () => {
        const body = alaskaOrder(`held-cancel-${++serial}`, { nte_cents: 1 });
        const created = await call(t, "POST", `${v1}/order`, { "x-api-key": customer }, body);
        assert.equal(created.status, 202, JSON.stringify(created.body));
        const id = (created.body.order as { id: string }).id;
        const revision = (await orderOf(id)).price_revision!;
        assert.equal((await cancel(id)).status, 200);
        assert.deepEqual(await endings(id, revision.id), { statuses: ["withdrawn"], pending: 0 });
        assert.equal((await answer(id, revision.id, "approve")).body.code, "price_revision_resolved");
      });
    });

    describe("races with the end of the hold", () => {
      const ends = [
        ["a give-back", (id: string) => report(id, { status: "unable_to_attend", reason: "other" })],
        ["the completion", (id: string) => report(id, { status: "completed", final_cost_cents: 90_000 })],
        ["the customer's cancel", (id: string) => cancel(id)],
      ] as const;
      for (const [what, end] of ends)
        it(`approval against ${what}: approved or withdrawn, never left pending, the NTE following`, async () => {
          for (let round = 0; round < 4; round++) {
            const { id, revision } = await revised(150_000);
            if (what === "the completion") await walkToSite(id);
            const approving = () => answer(id, revision.id, "approve");
            // each side goes out first in turn: a single-connection database serves them in that order
            const [approved, ended] =
              round % 2
                ? await Promise.all([approving(), end(id)])
                : (await Promise.all([end(id), approving()])).reverse();
            assert.equal(ended.status, 200, JSON.stringify(ended.body));
            const { statuses, pending } = await endings(id, revision.id);
            assert.equal(pending, 0);
            assert.deepEqual(statuses, [approved.status === 200 ? "approved" : "withdrawn"], JSON.stringify(approved));
            if (approved.status !== 200) assert.equal(approved.body.code, "price_revision_resolved");
            assert.equal((await orderOf(id)).nte_cents, approved.status === 200 ? 150_000 : 100_000);
          }
        });
    });

    describe("an order held over its NTE at creation", () => {
      it("comes with a pending revision at its price; approving it dispatches the order", async () => {
        const created = await call(
          t,
          "POST",
          `${v1}/order`,
          { "x-api-key": customer },
          alaskaOrder(`held-${++serial}`, { nte_cents: 1 }),
        );
        assert.equal(created.status, 202, JSON.stringify(created.body));
        const fulfilment = created.body.fulfilment as { reason: string; detail: string };
        assert.equal(fulfilment.reason, "over_nte");
        const id = (created.body.order as { id: string }).id;
        const held = await orderOf(id);
        const revision = held.price_revision!;
        assert.match(fulfilment.detail, new RegExp(`approve its price revision ${revision.id}`));
        assert.deepEqual(
          [revision.status, revision.requested_by, revision.amount_cents, revision.nte_cents],
          ["pending", "dispatch", held.quoted_cost_cents, 1],
        );
        const events = await eventsOf(id);
        assert.deepEqual(
          events.map((e) => e.type),
          ["order.created", "order.price_revision_requested"],
        );
        const approved = await answer(id, revision.id, "approve");
        assert.equal(approved.status, 200, JSON.stringify(approved.body));
        assert.equal((approved.body as unknown as OrderView).nte_cents, held.quoted_cost_cents);
        const dispatched = await untilValue(
          async () => {
            const order = await orderOf(id);
            return order.status === "pending_dispatch" ? order : undefined;
          },
          { message: "the dispatcher to assign the released order", intervalMs: 100 },
        );
        assert.equal(dispatched.price_revision?.status, "approved");
        assert.ok(await t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first());
      });
      it("stays held when the customer declines, and is cancelled by hand", async () => {
        const created = await call(
          t,
          "POST",
          `${v1}/order`,
          { "x-api-key": customer },
          alaskaOrder(`held-${++serial}`, { nte_cents: 1 }),
        );
        const id = (created.body.order as { id: string }).id;
        const revision = (await orderOf(id)).price_revision!;
        const declined = await answer(id, revision.id, "decline");
        assert.equal(declined.status, 200);
        const order = declined.body as unknown as OrderView;
        assert.deepEqual([order.status, order.nte_cents], ["accepted_pending_fulfilment", 1]);
        const cancelled = await call(
          t,
          "POST",
          `${v1}/orders/${id}/cancel`,
          { "x-api-key": customer },
          { reason: "other" },
        );
        assert.equal(cancelled.status, 200);
      });
    });

    describe("an order the dispatcher holds over its NTE", () => {
      it("gets a pending revision at the match's price once a contractor appears; approval dispatches it", async () => {
        const body = alaskaOrder(`held-later-${++serial}`, { trade: "electrical", nte_cents: 1000 });
        const created = await call(t, "POST", `${v1}/order`, { "x-api-key": customer }, body);
        assert.equal(created.status, 202, JSON.stringify(created.body));
        const id = (created.body.order as { id: string }).id;
        assert.equal((await orderOf(id)).price_revision, null);
        const electrician = { ...anchorageContractor("electrical", "Anchorage Sparks"), hourly_rate_cents: 9000 };
        assert.equal((await call(t, "POST", "/api/admin/v1/contractors", admin, electrician)).status, 201);
        const held = await untilValue(
          async () => {
            const order = await orderOf(id);
            return order.price_revision ? order : undefined;
          },
          { message: "the dispatcher to hold the order with a price revision", intervalMs: 100 },
        );
        const revision = held.price_revision!;
        assert.equal(held.status, "accepted_pending_fulfilment");
        assert.deepEqual(
          [revision.requested_by, revision.amount_cents, revision.nte_cents],
          ["dispatch", held.quoted_cost_cents, 1000],
        );
        const types = (await eventsOf(id)).map((e) => e.type);
        assert.deepEqual(types, ["order.created", "order.price_revision_requested"]);
        assert.equal((await answer(id, revision.id, "approve")).status, 200);
        await until(async () => (await orderOf(id)).status === "pending_dispatch", {
          message: "the dispatcher to assign the approved order",
          intervalMs: 100,
        });
      });
    });

    describe("isolation", () => {
      it("refuses other principals: accounts and environments 404, the wrong side 403", async () => {
        const { id, revision } = await revised();
        for (const key of [otherCustomer, testCustomer]) {
          const refused = await answer(id, revision.id, "approve", key);
          assert.equal(refused.status, 404, JSON.stringify(refused.body));
          assert.equal((await answer(id, revision.id, "decline", key)).status, 404);
        }
        const contractorCalls = await answer(id, revision.id, "approve", firstKey);
        assert.deepEqual([contractorCalls.status, contractorCalls.body.code], [403, "insufficient_scope"]);
        const customerAsks = await ask(id, { amount_cents: 160_000, reason }, customer);
        assert.deepEqual([customerAsks.status, customerAsks.body.code], [403, "insufficient_scope"]);
        for (const key of [secondKey, firstTestKey]) {
          const other = await ask(id, { amount_cents: 160_000, reason }, key);
          assert.equal(other.status, 404, JSON.stringify(other.body));
        }
        const unknown = await answer(id, "prv_nope", "approve");
        assert.equal(unknown.status, 404);
        const { id: another } = await revised();
        const crossed = await answer(another, revision.id, "approve");
        assert.equal(crossed.status, 404);
        assert.equal((await orderOf(id)).price_revision?.status, "pending");
      });
    });

    describe("webhooks and evals", () => {
      it("sends order.price_revision_requested and order.price_revision_resolved to the callback_url", async () => {
        const port = await freePort();
        const receiver = await startReceiver(port);
        try {
          const callback_url = `http://127.0.0.1:${port}/hooks`;
          const { id, revision } = await revised(150_000, { callback_url });
          assert.equal((await answer(id, revision.id, "approve")).status, 200);
          await until(() => receiver.deliveries.some((d) => d.body.type === "order.price_revision_resolved"));
          const bodies = receiver.deliveries.map((d) => d.body as { type: string; data: Record<string, unknown> });
          const requested = bodies.find((b) => b.type === "order.price_revision_requested")!;
          const resolved = bodies.find((b) => b.type === "order.price_revision_resolved")!;
          assert.deepEqual(requested.data.price_revision, revision);
          const approved = resolved.data.price_revision as Revision;
          assert.deepEqual([approved.id, approved.status], [revision.id, "approved"]);
          assert.equal(resolved.data.order_id, id);
        } finally {
          await receiver.stop();
        }
      });
      it("publishes the price-revision rate over live orders, with its sample size", async () => {
        const evals = await call(t, "GET", "/api/dispatch/analytics/evals?period=rolling_7d", {});
        assert.equal(evals.status, 200);
        const metric = (evals.body.metrics as Record<string, { value: number; sample_size: number }>)
          .price_revision_rate;
        const db = t.app.services.db;
        const orders = Number((await db("orders").where({ environment: "live" }).count({ n: "*" }))[0].n);
        const revisedOrders = Number(
          (await db("order_price_revisions").where({ environment: "live" }).countDistinct({ n: "order_id" }))[0].n,
        );
        assert.equal(metric.sample_size, orders);
        assert.equal(metric.value, Math.round((revisedOrders / orders) * 10_000) / 10_000);
      });
    });
  });
}

describe("price revisions under races (two instances on one Postgres)", function () {
  this.timeout(120_000);
  if (!postgresDatabase()) return;
  const servers = twoInstancesOfOnePostgres();
  let customer: string;
  let contractor: string;

  before(async () => {
    const { a } = servers;
    customer = (await a.issueKey({ account: "acme", environment: "live" })).key;
    contractor = await contractorKey(a, await plumber(a, "Race Revision Plumbing", 8000));
  });

  /** An accepted job with a pending revision of 150000 cents, made through instance a. */
  async function pending(reference: string) {
    const { a } = servers;
    const created = await call(a, "POST", `${v1}/order`, { "x-api-key": customer }, alaskaOrder(reference));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = (created.body.order as { id: string }).id;
    const offer = await a.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first();
    const accepted = await call(a, "POST", `${v1}/contractor/offers/${offer!.id}/accept`, { "x-api-key": contractor });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const path = `${v1}/contractor/jobs/${id}/price-revisions`;
    const asked = await call(a, "POST", path, { "x-api-key": contractor }, { amount_cents: 150_000, reason });
    assert.equal(asked.status, 201, JSON.stringify(asked.body));
    return { id, revision: (asked.body as { id: string }).id };
  }

  it("approve on one instance against approve or decline on the other: one answer per revision", async () => {
    for (let round = 0; round < 6; round++) {
      const { id, revision } = await pending(`race-revision-${round}`);
      const second = round % 2 ? "decline" : "approve";
      const answers = await Promise.all(
        [
          [servers.a, "approve"],
          [servers.b, second],
        ].map(([server, verb]) =>
          call(server as TestServer, "POST", `${v1}/orders/${id}/price-revisions/${revision}/${verb as string}`, {
            "x-api-key": customer,
          }),
        ),
      );
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409], JSON.stringify(answers));
      const db = servers.a.app.services.db;
      const resolved = await db("order_events").where({ order_id: id, type: "order.price_revision_resolved" });
      assert.equal(resolved.length, 1);
      const stored = await db("order_price_revisions").where({ id: revision }).first();
      const order = await db("orders").where({ id }).first();
      assert.equal(order!.nte_cents, stored!.status === "approved" ? 150_000 : 100_000);
    }
  });

  it("approve on one instance against a give-back, the completion or a cancel on the other: never left pending", async () => {
    const jobPath = (id: string) => `${v1}/contractor/jobs/${id}/status`;
    const ends = [
      (id: string) =>
        call(
          servers.b,
          "POST",
          jobPath(id),
          { "x-api-key": contractor },
          { status: "unable_to_attend", reason: "other" },
        ),
      (id: string) =>
        call(
          servers.b,
          "POST",
          jobPath(id),
          { "x-api-key": contractor },
          { status: "completed", final_cost_cents: 90_000 },
        ),
      (id: string) =>
        call(servers.b, "POST", `${v1}/orders/${id}/cancel`, { "x-api-key": customer }, { reason: "other" }),
    ];
    for (let round = 0; round < 9; round++) {
      const { id, revision } = await pending(`race-end-${round}`);
      if (round % 3 === 1) {
        const enRoute = { status: "en_route", estimated_arrival_at: new Date(now() + 1_800_000).toISOString() };
        for (const body of [enRoute, { status: "on_site" }])
          assert.equal((await call(servers.a, "POST", jobPath(id), { "x-api-key": contractor }, body)).status, 200);
      }
      const approve = () =>
        call(servers.a, "POST", `${v1}/orders/${id}/price-revisions/${revision}/approve`, { "x-api-key": customer });
      const [approved, ended] = await Promise.all([approve(), ends[round % 3](id)]);
      assert.equal(ended.status, 200, JSON.stringify(ended.body));
      const db = servers.a.app.services.db;
      const stored = (await db("order_price_revisions").where({ id: revision }).first())!;
      assert.equal(stored.status, approved.status === 200 ? "approved" : "withdrawn", JSON.stringify(approved.body));
      assert.equal(await db("order_price_revisions").where({ order_id: id, status: "pending" }).first(), undefined);
      const resolved = await db("order_events").where({ order_id: id, type: "order.price_revision_resolved" });
      assert.equal(resolved.length, 1);
      const order = await db("orders").where({ id }).first();
      assert.equal(order!.nte_cents, stored.status === "approved" ? 150_000 : 100_000);
    }
  });
});
