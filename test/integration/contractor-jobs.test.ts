// The contractor's jobs (services/dispatch/jobs/): the contractor holding a job reports en_route (its ETA),
// on_site, completed and unable_to_attend through updateJobStatus, each through the one transition path with the
// operator's events but no human override, audited under the order's tenant; giving a job back re-offers it; only
// the holder may report (other contractors, the other environment, customers and revoked keys are refused); the
// NTE holds; two completes race to one winner; and the evals count the live offers. rescheduleJob moves a held job
// to another window by rescheduleOrder's rule (its 409s), saying the contractor moved it, and only for the holder.
import assert from "node:assert/strict";
import {
  admin,
  answerOffer,
  call,
  contractorKey,
  offeredOrder,
  orderOf,
  plumber,
  startContractorWorld,
  windowsOf,
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
import { giveBackJob } from "../../server/services/dispatch/orders/give-back.js";
import { now } from "../../server/services/shared/clock.js";

interface Job {
  offer_id: string;
  accepted_at: string;
  eta: { estimated_arrival_at: string; source: string } | null;
  final_cost_cents: number | null;
  next_steps: string[];
  price_revision: { status: string; amount_cents: number } | null;
  job: {
    nte_cents: number | null;
    time_zone: string;
    quoted_cost_cents: number | null;
    order_id: string;
    status: string;
    location: Record<string, string>;
    arrival_window: { start: string; end: string } | null;
  };
}

const report = (t: ServerTarget, key: string, orderId: string, body: unknown) =>
  call(t, "POST", `/api/dispatch/v1/contractor/jobs/${orderId}/status`, { "x-api-key": key }, body);
const jobsOf = async (t: ServerTarget, key: string) => {
  const page = await call(t, "GET", "/api/dispatch/v1/contractor/jobs", { "x-api-key": key });
  assert.equal(page.status, 200, JSON.stringify(page.body));
  return page.body.items as Job[];
};
const inMinutes = (minutes: number) => new Date(now() + minutes * 60_000).toISOString();
const move = (t: ServerTarget, key: string, orderId: string, arrival_window: unknown) =>
  call(t, "POST", `/api/dispatch/v1/contractor/jobs/${orderId}/reschedule`, { "x-api-key": key }, { arrival_window });
const openWindows = (t: ServerTarget, key: string, orderId: string) =>
  call(t, "GET", `/api/dispatch/v1/contractor/jobs/${orderId}/windows`, { "x-api-key": key });

/** The offer answered by `key` (its contractor's). */
async function answer(t: ServerTarget, key: string, offerId: string, verb: "accept" | "decline") {
  const body = verb === "decline" ? { reason: "no_capacity" } : undefined;
  const answered = await answerOffer(t, key, offerId, verb, body);
  assert.equal(answered.status, 200, JSON.stringify(answered.body));
}

for (const target of databases()) {
  describe(`contractor jobs (${target.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let customer: string;
    let first: { id: string; ref: string };
    let second: { id: string; ref: string };
    let firstKey: string;
    let secondKey: string;
    let serial = 0;

    /** A new AK order accepted by the first plumber: its id. */
    async function heldJob() {
      const { orderId, offer } = await offeredOrder(t, customer, `job-${++serial}`);
      assert.equal(offer.contractor_id, first.id);
      await answer(t, firstKey, offer.id, "accept");
      return orderId;
    }
    const eventsOf = async (orderId: string, after = 0) =>
      (await t.app.services.db("order_events").where({ order_id: orderId }).where("id", ">", after).orderBy("id")).map(
        (e) => `${e.type}:${e.status}`,
      );
    const lastEventId = async (orderId: string) =>
      Number((await t.app.services.db("order_events").where({ order_id: orderId }).max({ id: "id" }))[0].id);

    before(async () => {
      // one contractor key makes every call of the suite: more than one key's default rate allows
      ({ t, customer, first, second, firstKey, secondKey } = await startContractorWorld(target, {
        RATE_LIMIT_POINTS: "100000",
      }));
    });
    after(() => t?.stop());

    describe("updateJobStatus()", () => {
      it("reports en_route with an ETA, on_site and completed: the operator's events, no human override, audited", async () => {
        const id = await heldJob();
        let mark = await lastEventId(id);
        const eta = inMinutes(40);
        const enRoute = await report(t, firstKey, id, {
          status: "en_route",
          estimated_arrival_at: eta,
          note: "Off now.",
        });
        assert.equal(enRoute.status, 200, JSON.stringify(enRoute.body));
        const view = enRoute.body as unknown as Job;
        assert.deepEqual(
          [view.job.status, view.eta?.source, view.eta?.estimated_arrival_at],
          ["en_route", "contractor", eta],
        );
        assert.deepEqual(await eventsOf(id, mark), ["order.status_changed:en_route", "order.eta_updated:en_route"]);
        mark = await lastEventId(id);
        assert.equal((await report(t, firstKey, id, { status: "on_site" })).status, 200);
        assert.deepEqual(await eventsOf(id, mark), ["order.status_changed:on_site"]);
        mark = await lastEventId(id);
        const done = await report(t, firstKey, id, { status: "completed", final_cost_cents: 30_000, note: "Fixed." });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal((done.body as unknown as Job).final_cost_cents, 30_000);
        assert.deepEqual(await eventsOf(id, mark), ["order.status_changed:completed", "order.completed:completed"]);
        const order = await orderOf(t, customer, id);
        assert.deepEqual([order.status, order.final_cost_cents], ["completed", 30_000]);
        assert.ok(order.events.every((e) => !e.human_override));
        assert.equal(order.events.at(-1)!.note, "Fixed.");
        const audit = await t.app.services
          .db("audit_records")
          .where({ type: "job_status", subject: id })
          .orderBy("position");
        const contents = audit.map((r) => JSON.parse(r.content) as Record<string, unknown>);
        assert.deepEqual(
          contents
            .map((c) => [c.from, c.status, c.contractor_id])
            .sort(
              (x, y) =>
                order.events.findIndex((e) => e.status === x[1]) - order.events.findIndex((e) => e.status === y[1]),
            ),
          [
            ["dispatched", "en_route", first.id],
            ["en_route", "on_site", first.id],
            ["on_site", "completed", first.id],
          ],
        );
        assert.deepEqual([audit[0].account, audit[0].environment], ["acme", "live"]);
        const again = await report(t, firstKey, id, { status: "completed", final_cost_cents: 30_000 });
        assert.deepEqual([again.status, again.body.code], [409, "invalid_transition"]);
      });
      it("answers 409 for a step out of order and 422 for a field missing or out of place", async () => {
        const id = await heldJob();
        const early = await report(t, firstKey, id, { status: "completed", final_cost_cents: 1 });
        assert.deepEqual([early.status, early.body.code], [409, "invalid_transition"]);
        // only the steps this contractor may take: never cancelled, which is the customer's or an operator's
        assert.match(String(early.body.detail), /dispatched: you may report en_route or on_site or unable_to_attend/);
        assert.doesNotMatch(String(early.body.detail), /cancel/);
        const cases: [unknown, string][] = [
          [{ status: "en_route" }, "/estimated_arrival_at"],
          [{ status: "on_site", reason: "other" }, "/reason"],
          [{ status: "en_route", estimated_arrival_at: inMinutes(10), final_cost_cents: 1 }, "/final_cost_cents"],
          [{ status: "unable_to_attend" }, "/reason"],
          [{ status: "en_route", estimated_arrival_at: inMinutes(-120) }, "/estimated_arrival_at"],
        ];
        for (const [body, pointer] of cases) {
          const refused = await report(t, firstKey, id, body);
          assert.equal(refused.status, 422, JSON.stringify(body));
          assert.equal((refused.body.errors as { pointer: string }[])[0].pointer, pointer);
        }
        const unknown = await report(t, firstKey, id, { status: "dispatched" });
        assert.equal(unknown.status, 422);
        assert.equal((await orderOf(t, customer, id)).status, "dispatched");
      });
      it("refuses a completion above the NTE (409 over_nte) and takes one within it", async () => {
        const id = await heldJob();
        await report(t, firstKey, id, { status: "en_route", estimated_arrival_at: inMinutes(30) });
        await report(t, firstKey, id, { status: "on_site" });
        const over = await report(t, firstKey, id, { status: "completed", final_cost_cents: 100_001 });
        assert.deepEqual([over.status, over.body.code], [409, "over_nte"]);
        assert.equal((await orderOf(t, customer, id)).status, "on_site");
        assert.equal((await report(t, firstKey, id, { status: "completed", final_cost_cents: 100_000 })).status, 200);
      });
      it("two completes at once: one wins, one order.completed", async () => {
        const id = await heldJob();
        await report(t, firstKey, id, { status: "en_route", estimated_arrival_at: inMinutes(30) });
        await report(t, firstKey, id, { status: "on_site" });
        const body = { status: "completed", final_cost_cents: 20_000 };
        const both = await Promise.all([report(t, firstKey, id, body), report(t, firstKey, id, body)]);
        assert.deepEqual(both.map((r) => r.status).sort(), [200, 409]);
        const completed = await t.app.services.db("order_events").where({ order_id: id, type: "order.completed" });
        assert.equal(completed.length, 1);
      });
    });

    describe("steps as the field works", () => {
      it("on_site straight from dispatched: the order arrives through en_route now, its ETA the arrival", async () => {
        const id = await heldJob();
        const mark = await lastEventId(id);
        const arrived = await report(t, firstKey, id, { status: "on_site", note: "Was next door." });
        assert.equal(arrived.status, 200, JSON.stringify(arrived.body));
        const view = arrived.body as unknown as Job;
        assert.deepEqual(
          [view.job.status, view.eta?.source, view.next_steps],
          ["on_site", "contractor", ["completed"]],
        );
        assert.ok(Math.abs(Date.parse(view.eta!.estimated_arrival_at) - now()) < 60_000);
        assert.deepEqual(await eventsOf(id, mark), [
          "order.status_changed:en_route",
          "order.eta_updated:en_route",
          "order.status_changed:on_site",
        ]);
        const order = await orderOf(t, customer, id);
        assert.deepEqual(
          order.events.slice(-2).map((e) => [e.status, e.human_override]),
          [
            ["en_route", false],
            ["on_site", false],
          ],
        );
        assert.equal(order.events.at(-1)!.note, "Was next door.");
        const audit = await t.app.services.db("audit_records").where({ type: "job_status", subject: id });
        assert.deepEqual(
          audit.map((r) => JSON.parse(r.content) as Record<string, unknown>).map((c) => [c.from, c.status]),
          [["dispatched", "on_site"]],
        );
      });
      it("a job's view lists the next steps it may take, and none once it is given back", async () => {
        const id = await heldJob();
        const steps = async () => (await jobsOf(t, firstKey)).find((job) => job.job.order_id === id)?.next_steps;
        assert.deepEqual(await steps(), ["en_route", "on_site", "unable_to_attend"]);
        await report(t, firstKey, id, { status: "en_route", estimated_arrival_at: inMinutes(30) });
        assert.deepEqual(await steps(), ["on_site", "unable_to_attend"]);
        const gone = await report(t, firstKey, id, { status: "unable_to_attend", reason: "other" });
        assert.deepEqual((gone.body as unknown as Job).next_steps, []);
      });
      it("shows the order id, status, address, window, ETA, NTE, price and the revision's outcome", async () => {
        const id = await heldJob();
        const asked = await call(
          t,
          "POST",
          `/api/dispatch/v1/contractor/jobs/${id}/price-revisions`,
          { "x-api-key": firstKey },
          { amount_cents: 150_000, reason: "Corroded valve." },
        );
        assert.equal(asked.status, 201, JSON.stringify(asked.body));
        const revisionId = asked.body.id as string;
        const declined = await call(t, "POST", `/api/dispatch/v1/orders/${id}/price-revisions/${revisionId}/decline`, {
          "x-api-key": customer,
        });
        assert.equal(declined.status, 200, JSON.stringify(declined.body));
        const job = (await jobsOf(t, firstKey)).find((held) => held.job.order_id === id)!;
        const order = await orderOf(t, customer, id);
        assert.deepEqual(
          [job.job.status, job.job.location.address, job.job.arrival_window, job.job.nte_cents],
          ["dispatched", "1 Main St", order.arrival_window, 100_000],
        );
        assert.deepEqual(
          [job.job.quoted_cost_cents, job.eta?.estimated_arrival_at, job.job.time_zone],
          [order.quoted_cost_cents, order.eta?.estimated_arrival_at, "America/Anchorage"],
        );
        assert.deepEqual([job.price_revision?.status, job.price_revision?.amount_cents], ["declined", 150_000]);
      });
    });

    describe("listJobWindows()", () => {
      it("lists the windows a quote would offer, of the job's contractor only, its own seats free; the move takes one", async () => {
        const id = await heldJob();
        const listed = await openWindows(t, firstKey, id);
        assert.equal(listed.status, 200, JSON.stringify(listed.body));
        const body = listed.body as {
          order_id: string;
          time_zone: string;
          arrival_window: unknown;
          windows: unknown[];
        };
        const order = await orderOf(t, customer, id);
        assert.deepEqual(
          [body.order_id, body.time_zone, body.arrival_window],
          [id, "America/Anchorage", order.arrival_window],
        );
        // the contractor's worked, bookable windows but its own: it has free seats in each (one job of its own)
        assert.deepEqual(body.windows, (await windowsOf(t, id)).bookable);
        const to = body.windows.at(-1)!;
        const moved = await move(t, firstKey, id, to);
        assert.equal(moved.status, 200, JSON.stringify(moved.body));
        const after = (await openWindows(t, firstKey, id)).body as typeof body;
        assert.deepEqual(after.arrival_window, to);
        assert.ok(!after.windows.some((w) => JSON.stringify(w) === JSON.stringify(to)));
        assert.ok(after.windows.some((w) => JSON.stringify(w) === JSON.stringify(order.arrival_window)));
        await report(t, firstKey, id, { status: "unable_to_attend", reason: "other" }); // its seat left free
      });
      it("leaves out a window whose seats another job of the contractor took; the move there is 409 naming jobs windows", async () => {
        const id = await heldJob();
        const other = await heldJob();
        const row = (await t.app.services.db("orders").where({ id }).first())!;
        const { capacity } = (await t.app.services.contractors.get(row.contractor_id!))!;
        const patch = (body: unknown) => call(t, "PATCH", `/api/admin/v1/contractors/${first.id}`, admin, body);
        assert.equal((await patch({ capacity: { ...capacity, concurrent_jobs: 1 } })).status, 200);
        try {
          const listed = (await openWindows(t, firstKey, id)).body.windows as { start: string; end: string }[];
          const target = listed.at(-1)!;
          const taken = await move(t, firstKey, other, target);
          assert.equal(taken.status, 200, JSON.stringify(taken.body));
          const windows = (await openWindows(t, firstKey, id)).body.windows as { start: string }[];
          assert.ok(!windows.some((w) => w.start === target.start), "a full window is not listed");
          // the one technician's time around the target is taken: that window and any whose job would run into it
          assert.ok(windows.length < listed.length);
          assert.ok(windows.every((w) => listed.some((l) => l.start === w.start)));
          const refused = await move(t, firstKey, id, target);
          assert.deepEqual([refused.status, refused.body.code], [409, "window_unavailable"]);
          assert.match(String(refused.body.detail), new RegExp(`'dispatch jobs windows ${id}'`));
          assert.doesNotMatch(String(refused.body.detail), /quote again/);
        } finally {
          assert.equal((await patch({ capacity })).status, 200);
          for (const job of [id, other])
            await report(t, firstKey, job, { status: "unable_to_attend", reason: "other" });
        }
      });
      it("answers 409 order_not_reschedulable once the job is on site", async () => {
        const id = await heldJob();
        assert.equal((await report(t, firstKey, id, { status: "on_site" })).status, 200);
        const refused = await openWindows(t, firstKey, id);
        assert.deepEqual([refused.status, refused.body.code], [409, "order_not_reschedulable"]);
      });
      it("only the holder: another contractor, the other environment, an offer not accepted are 404; customers 403", async () => {
        const id = await heldJob();
        assert.equal((await openWindows(t, secondKey, id)).status, 404);
        const testKey = (await contractorKey(t, first.id, "test")).key;
        assert.equal((await openWindows(t, testKey, id)).status, 404);
        const asCustomer = await openWindows(t, customer, id);
        assert.deepEqual([asCustomer.status, asCustomer.body.code], [403, "insufficient_scope"]);
        const { orderId } = await offeredOrder(t, customer, `job-${++serial}`);
        assert.equal((await openWindows(t, firstKey, orderId)).status, 404);
        assert.equal((await openWindows(t, firstKey, "ord_nobody")).status, 404);
      });
    });

    describe("unable_to_attend", () => {
      it("re-offers the job to the next contractor, then back to the queue when nobody is left", async () => {
        const id = await heldJob();
        await report(t, firstKey, id, { status: "en_route", estimated_arrival_at: inMinutes(30) });
        const mark = await lastEventId(id);
        const gone = await report(t, firstKey, id, { status: "unable_to_attend", reason: "vehicle_breakdown" });
        assert.equal(gone.status, 200, JSON.stringify(gone.body));
        const order = await orderOf(t, customer, id);
        assert.deepEqual([order.status, order.assigned_contractor_ref], ["pending_dispatch", second.ref]);
        assert.deepEqual(await eventsOf(id, mark), [
          "order.status_changed:pending_dispatch",
          "order.assigned:pending_dispatch",
        ]);
        assert.match(order.events.at(-1)!.note!, /unable to attend \(vehicle_breakdown\)/);
        assert.ok(!(await jobsOf(t, firstKey)).some((job) => job.job.order_id === id));
        const late = await report(t, firstKey, id, { status: "on_site" });
        assert.equal(late.status, 404);
        const audit = await t.app.services
          .db("audit_records")
          .where({ type: "job_status", subject: id })
          .orderBy("position");
        assert.ok(audit.some((r) => JSON.parse(r.content).reason === "vehicle_breakdown"));
        const next = await t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first();
        assert.equal(next!.contractor_id, second.id);
        await answer(t, secondKey, next!.id, "accept");
        assert.deepEqual(
          (await jobsOf(t, secondKey)).filter((job) => job.job.order_id === id).map((job) => job.job.status),
          ["dispatched"],
        );
        const last = await report(t, secondKey, id, { status: "unable_to_attend", reason: "schedule_conflict" });
        assert.equal(last.status, 200);
        const queued = await orderOf(t, customer, id);
        assert.deepEqual([queued.status, queued.assigned_contractor_ref], ["accepted_pending_fulfilment", null]);
        assert.deepEqual(await t.app.services.db("contractor_bookings").where({ order_id: id }), []);
      });
      it("a give-back whose re-offer never ran is re-offered by the dispatcher's sweep", async () => {
        const id = await heldJob();
        const row = (await t.app.services.db("orders").where({ id }).first())!;
        // the give-back commits, and the instance stops before re-offering
        await t.app.services.db.transaction((trx) => giveBackJob(trx, row, "Given back.", t.url));
        // given back is no longer held, re-offered or not: no job to list, report or move, no street in its offer
        assert.ok(!(await jobsOf(t, firstKey)).some((job) => job.job.order_id === id));
        const offers = await call(t, "GET", "/api/dispatch/v1/contractor/offers", { "x-api-key": firstKey });
        const old = (offers.body.items as Job[]).find((offer) => offer.job.order_id === id)!;
        assert.deepEqual([old.job.location.address, old.job.status], [undefined, "pending_dispatch"]);
        t.app.services.dispatcher.nudge();
        const ref = await untilValue(
          async () => {
            const view = await orderOf(t, customer, id);
            return view.assigned_contractor_ref === second.ref ? view.assigned_contractor_ref : undefined;
          },
          { timeoutMs: 10_000, intervalMs: 100, message: "the job re-offered by the sweep" },
        );
        assert.equal(ref, second.ref);
        assert.equal((await report(t, firstKey, id, { status: "on_site" })).status, 404);
      });
      it("is refused once on site (409)", async () => {
        const id = await heldJob();
        await report(t, firstKey, id, { status: "en_route", estimated_arrival_at: inMinutes(30) });
        await report(t, firstKey, id, { status: "on_site" });
        const refused = await report(t, firstKey, id, { status: "unable_to_attend", reason: "other" });
        assert.deepEqual([refused.status, refused.body.code], [409, "invalid_transition"]);
      });
    });

    describe("rescheduleJob()", () => {
      it("moves the job to another window it works: the job's view, order.rescheduled by the contractor, the ETA, audited", async () => {
        const id = await heldJob();
        const to = (await windowsOf(t, id)).bookable.at(-1)!;
        const mark = await lastEventId(id);
        const moved = await move(t, firstKey, id, to);
        assert.equal(moved.status, 200, JSON.stringify(moved.body));
        const view = moved.body as unknown as Job;
        assert.deepEqual([view.job.arrival_window, view.job.status], [to, "dispatched"]);
        assert.deepEqual(
          [view.eta?.source, Date.parse(view.eta!.estimated_arrival_at)],
          ["window", Date.parse(to.start)],
        );
        assert.deepEqual(await eventsOf(id, mark), ["order.rescheduled:dispatched", "order.eta_updated:dispatched"]);
        const event = await t.app.services
          .db("order_events")
          .where({ order_id: id, type: "order.rescheduled" })
          .first();
        assert.deepEqual([event!.data!.rescheduled_by, event!.data!.arrival_window], ["contractor", to]);
        const order = (await call(t, "GET", `/api/dispatch/v1/orders/${id}`, { "x-api-key": customer })).body;
        assert.deepEqual(order.arrival_window, to);
        const audit = await t.app.services
          .db("audit_records")
          .where({ type: "reschedule", subject: id })
          .orderBy("position");
        assert.equal(audit.length, 1);
        const content = JSON.parse(audit[0].content) as Record<string, unknown>;
        assert.deepEqual([content.by, content.contractor_id], ["contractor", first.id]);
        assert.deepEqual([audit[0].account, audit[0].environment], ["acme", "live"]);
        const again = await move(t, firstKey, id, to);
        assert.deepEqual([again.status, (again.body as unknown as Job).job.arrival_window], [200, to]);
        assert.deepEqual(await eventsOf(id, mark), ["order.rescheduled:dispatched", "order.eta_updated:dispatched"]);
      });
      it("has rescheduleOrder's refusals: 409 window_unavailable, 422 off the grid, 409 order_not_reschedulable on site", async () => {
        const id = await heldJob();
        const { beyond } = await windowsOf(t, id);
        const far = await move(t, firstKey, id, beyond);
        assert.deepEqual([far.status, far.body.code], [409, "window_unavailable"]);
        const odd = { start: beyond.start.replace(/T(\d\d):00/, "T$1:30"), end: beyond.end };
        const offGrid = await move(t, firstKey, id, odd);
        assert.equal(offGrid.status, 422, JSON.stringify(offGrid.body));
        assert.equal(
          await t.app.services.db("order_events").where({ order_id: id, type: "order.rescheduled" }).first(),
          undefined,
        );
        assert.equal(
          (await report(t, firstKey, id, { status: "en_route", estimated_arrival_at: inMinutes(30) })).status,
          200,
        );
        assert.equal((await report(t, firstKey, id, { status: "on_site" })).status, 200);
        const onSite = await move(t, firstKey, id, (await windowsOf(t, id)).bookable.at(-1));
        assert.deepEqual([onSite.status, onSite.body.code], [409, "order_not_reschedulable"]);
      });
      it("only the holder: another contractor, the other environment, an offer not accepted are 404; customers 403", async () => {
        const id = await heldJob();
        const to = (await windowsOf(t, id)).bookable.at(-1)!;
        assert.equal((await move(t, secondKey, id, to)).status, 404);
        const testKey = (await contractorKey(t, first.id, "test")).key;
        assert.equal((await move(t, testKey, id, to)).status, 404);
        const asCustomer = await move(t, customer, id, to);
        assert.deepEqual([asCustomer.status, asCustomer.body.code], [403, "insufficient_scope"]);
        const { orderId } = await offeredOrder(t, customer, `job-${++serial}`);
        assert.equal((await move(t, firstKey, orderId, to)).status, 404);
        assert.equal((await move(t, firstKey, "ord_nobody", to)).status, 404);
        assert.equal(
          await t.app.services
            .db("order_events")
            .where({ type: "order.rescheduled" })
            .whereIn("order_id", [id, orderId])
            .first(),
          undefined,
        );
      });
    });

    describe("tenancy", () => {
      it("lists only the caller's jobs, with the whole location and never the customer", async () => {
        const id = await heldJob();
        const mine = (await jobsOf(t, firstKey)).find((job) => job.job.order_id === id);
        assert.ok(mine);
        assert.equal(mine.job.location.address, "1 Main St");
        const text = JSON.stringify(mine);
        for (const hidden of ["acme", "job-", "callback_url", "reference_id"])
          assert.ok(!text.includes(hidden), `the job shows ${hidden}`);
        assert.ok(!(await jobsOf(t, secondKey)).some((job) => job.job.order_id === id));
        const testKey = (await contractorKey(t, first.id, "test")).key;
        assert.deepEqual(await jobsOf(t, testKey), []);
        const newer = await heldJob();
        const page = await call(t, "GET", "/api/dispatch/v1/contractor/jobs?limit=1", { "x-api-key": firstKey });
        assert.equal((page.body.items as Job[])[0].job.order_id, newer);
        const cursor = encodeURIComponent(page.body.next_cursor as string);
        const rest = await call(t, "GET", `/api/dispatch/v1/contractor/jobs?limit=1&cursor=${cursor}`, {
          "x-api-key": firstKey,
        });
        assert.equal(rest.status, 200, JSON.stringify(rest.body));
        assert.notEqual((rest.body.items as Job[])[0].job.order_id, newer);
      });
      it("refuses another contractor (404), the other environment (404), customers (403) and revoked keys (401)", async () => {
        const id = await heldJob();
        const body = { status: "en_route", estimated_arrival_at: inMinutes(30) };
        assert.equal((await report(t, secondKey, id, body)).status, 404);
        const testKey = (await contractorKey(t, first.id, "test")).key;
        assert.equal((await report(t, testKey, id, body)).status, 404);
        const asCustomer = await report(t, customer, id, body);
        assert.deepEqual([asCustomer.status, asCustomer.body.code], [403, "insufficient_scope"]);
        const listed = await call(t, "GET", "/api/dispatch/v1/contractor/jobs", { "x-api-key": customer });
        assert.deepEqual([listed.status, listed.body.code], [403, "insufficient_scope"]);
        const revoked = await contractorKey(t, first.id);
        assert.equal((await call(t, "DELETE", `/api/admin/v1/keys/${revoked.id}`, admin)).status, 200);
        assert.equal((await report(t, revoked.key, id, body)).status, 401);
        assert.equal((await report(t, firstKey, "ord_nobody", body)).status, 404);
        assert.equal((await orderOf(t, customer, id)).status, "dispatched");
      });
      it("a job an operator moved on is no longer the contractor's to report (404)", async () => {
        const { orderId } = await offeredOrder(t, customer, `job-${++serial}`);
        const moved = await call(t, "POST", `/api/admin/v1/orders/${orderId}/events`, admin, { status: "dispatched" });
        assert.equal(moved.status, 201);
        const body = { status: "en_route", estimated_arrival_at: inMinutes(30) };
        assert.equal((await report(t, firstKey, orderId, body)).status, 404);
      });
    });

    describe("evals", () => {
      it("counts live offers only: acceptance rate, time to accept and re-offers per order, with sample sizes", async () => {
        const fresh = await startTestServer(target, { DISPATCHER_INTERVAL_MS: "60000" });
        try {
          const buyer = (await fresh.issueKey({ account: "evals", environment: "live" })).key;
          const sandbox = (await fresh.issueKey({ account: "evals", environment: "test" })).key;
          const [a, b] = [await plumber(fresh, "Evals One", 8000), await plumber(fresh, "Evals Two", 12_000)];
          const keys = {
            [a.id]: (await contractorKey(fresh, a.id)).key,
            [b.id]: (await contractorKey(fresh, b.id)).key,
          };
          const metrics = async () =>
            (await call(fresh, "GET", "/api/dispatch/analytics/evals?period=rolling_7d", {})).body.metrics as Record<
              string,
              { value: number | null; sample_size: number; provenance: string }
            >;
          const empty = await metrics();
          assert.deepEqual(
            [empty.offer_acceptance_rate.provenance, empty.reoffers_per_order.sample_size],
            ["unavailable", 0],
          );
          const one = await offeredOrder(fresh, buyer, "evals-1"); // accepted at once
          await answer(fresh, keys[one.offer.contractor_id], one.offer.id, "accept");
          const two = await offeredOrder(fresh, buyer, "evals-2"); // declined, then accepted by the next
          await answer(fresh, keys[two.offer.contractor_id], two.offer.id, "decline");
          const next = await fresh.app.services
            .db("order_offers")
            .where({ order_id: two.orderId, status: "offered" })
            .first();
          await answer(fresh, keys[next!.contractor_id], next!.id, "accept");
          await offeredOrder(fresh, buyer, "evals-3"); // still open: not an answer
          const test = await offeredOrder(fresh, sandbox, "evals-test"); // sandbox: never counted
          const testKey = (await contractorKey(fresh, test.offer.contractor_id, "test")).key;
          await answer(fresh, testKey, test.offer.id, "decline");
          // the two acceptances took 1 and 3 minutes
          for (const [id, minutes] of [
            [one.offer.id, 1],
            [next!.id, 3],
          ] as const) {
            const row = await fresh.app.services.db("order_offers").where({ id }).first();
            const offeredAt = new Date(new Date(row!.responded_at!).getTime() - minutes * 60_000);
            await fresh.app.services.db("order_offers").where({ id }).update({ created_at: offeredAt });
          }
          const m = await metrics();
          const figure = (name: string) => [m[name].value, m[name].sample_size, m[name].provenance];
          assert.deepEqual(figure("offer_acceptance_rate"), [0.6667, 3, "measurement"]);
          assert.deepEqual(figure("time_to_accept_p50_ms"), [60_000, 2, "measurement"]);
          assert.deepEqual(figure("time_to_accept_p95_ms"), [180_000, 2, "measurement"]);
          assert.deepEqual(figure("reoffers_per_order"), [0.3333, 3, "measurement"]);
        } finally {
          await fresh.stop();
        }
      });
    });
  });
}

describe("contractor jobs under races (two instances on one Postgres)", function () {
  this.timeout(120_000);
  if (!postgresDatabase()) return;
  const servers = twoInstancesOfOnePostgres();

  it("two completes of one job on two instances: exactly one wins, never above the NTE", async () => {
    const { a, b } = servers;
    const customer = (await a.issueKey({ account: "acme", environment: "live" })).key;
    const made = await plumber(a, "Race Jobs Plumbing", 8000);
    const key = (await contractorKey(a, made.id)).key;
    for (let round = 0; round < 6; round++) {
      const { orderId, offer } = await offeredOrder(a, customer, `race-job-${round}`);
      await answer(a, key, offer.id, "accept");
      await report(a, key, orderId, { status: "en_route", estimated_arrival_at: inMinutes(30) });
      await report(b, key, orderId, { status: "on_site" });
      const answers = await Promise.all([
        report(a, key, orderId, { status: "completed", final_cost_cents: 50_000 }),
        report(b, key, orderId, { status: "completed", final_cost_cents: 100_001 }),
        report(b, key, orderId, { status: "completed", final_cost_cents: 60_000 }),
      ]);
      assert.equal(answers.filter((r) => r.status === 200).length, 1, JSON.stringify(answers.map((r) => r.body)));
      const row = await a.app.services.db("orders").where({ id: orderId }).first();
      assert.ok(row!.final_cost_cents! <= 100_000);
      const completed = await a.app.services.db("order_events").where({ order_id: orderId, type: "order.completed" });
      assert.equal(completed.length, 1);
    }
  });
});
