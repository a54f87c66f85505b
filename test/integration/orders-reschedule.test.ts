// rescheduleOrder (server/services/dispatch/orders/reschedule.ts), on every test database: an assigned order moves
// to another window of its contractor (the view, an order.rescheduled event with both windows, a webhook and an audit
// record; its old seat freed for the next order), a full window is 409 naming it, a repeat of the booked window is
// the same 200 with no event, a window off the grid is 422 naming the field, an unassigned, on-site or cancelled
// order is 409 order_not_reschedulable, another account's (or environment's) order is 404, and a key without the
// order scope is 403. Its contractor (one technician) is the only one for its trade in Alaska; an appliance repair
// holds it two hours (a 27-minute drive from its base, rounded out to the quarter hour, and 90 minutes' work), so each window takes one job and the
// next another.
import assert from "node:assert/strict";
import { anchorageContractor, anchorageWindow } from "../fixtures/requests.js";
import { postOrder, recordEvent } from "../fixtures/orders.js";
import { jsonRequest } from "../helpers/request.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { untilValue } from "../helpers/wait.js";
import type { Schemas } from "../../server/types/contract.js";

type S = Schemas;
type Window = S["ArrivalWindow"];
interface Problem {
  code: string;
  detail: string;
  errors?: { pointer: string }[];
}
const hour = 3_600_000;
const location = { state: "AK", city: "Anchorage", zip: "99501" } as const;
const always = [{ start: "00:00", end: "24:00" }];
const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
const allWeek = Object.fromEntries(days.map((day) => [day, always])) as unknown as S["WorkingHours"];
const trade = "appliance_repair" satisfies S["TradeCode"];

for (const db of databases()) {
  describe(`rescheduleOrder (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    let windows: Window[];
    let contractorId: string;
    let references = 0;
    const headers = (k: string) => ({ "x-api-key": k });
    const reschedule = (id: string, arrival_window: unknown, k = key) =>
      jsonRequest(t, "POST", `/api/dispatch/v1/orders/${id}/reschedule`, {
        headers: headers(k),
        body: { arrival_window },
      });
    async function order(window: Window, extra: Record<string, unknown> = {}) {
      const body = { trade, location, urgency: "routine", description: "Reschedule test.", arrival_window: window };
      const response = await postOrder(t, headers(key), { ...body, reference_id: `rs-${++references}`, ...extra });
      assert.equal(response.status, 201, await response.clone().text());
      return ((await response.json()) as { order: { id: string } }).order.id;
    }
    const view = async (id: string) =>
      (await (
        await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}`, { headers: headers(key) })
      ).json()) as S["OrderStatus"];
    const feed = (id: string, type: string) =>
      untilValue(async () => {
        const page = (await (
          await t.fetch(`${t.url}/api/dispatch/v1/orders/${id}/events`, { headers: headers(key) })
        ).json()) as S["EventPage"];
        return page.items.some((e) => e.type === type) ? page.items : undefined;
      });

    before(async () => {
      t = await startTestServer(db, { WEBHOOK_ALLOW_PRIVATE: "true" }, { inject: true });
      key = (await t.issueKey({ account: "movers", environment: "live" })).key;
      const added = await jsonRequest(t, "POST", "/api/admin/v1/contractors", {
        headers: { authorization: `Bearer ${adminToken}` },
        body: {
          ...anchorageContractor(trade, "Reschedule Repairs"),
          working_hours: allWeek,
          capacity: { concurrent_jobs: 1, jobs_per_day: 40 },
          base_zip: "99515", // south Anchorage: 27 minutes to downtown (geo/drive.ts), a quarter hour rounded out
        },
      });
      assert.equal(added.status, 201);
      contractorId = ((await added.json()) as S["Contractor"]).id;
      const quote = await jsonRequest(t, "POST", "/api/dispatch/v1/quote", {
        headers: headers(key),
        body: { trade, location, urgency: "routine" },
      });
      // as an order shows them: start and end, without the quote's confidence
      windows = (((await quote.json()) as S["Quote"]).arrival_windows ?? []).map(({ start, end }) => ({ start, end }));
      assert.ok(windows.length > 24, `windows: ${String(windows.length)}`);
    });
    after(() => t?.stop());

    it("moves the order to a free window: view, eta, event with both windows, webhook, audit; the old seat frees", async () => {
      const [from, to] = [windows[1], windows[10]];
      const id = await order(from, { callback_url: "http://127.0.0.1:9/hook" });
      const moved = await reschedule(id, to);
      assert.equal(moved.status, 200, await moved.clone().text());
      const body = (await moved.json()) as S["OrderStatus"];
      assert.deepEqual(body.arrival_window, to);
      assert.deepEqual(await view(id), body);
      assert.equal(body.eta?.source, "window");
      assert.equal(Date.parse(body.eta?.estimated_arrival_at ?? ""), Date.parse(to.start));
      const items = await feed(id, "order.eta_updated");
      const rescheduled = items.find((e) => e.type === "order.rescheduled");
      assert.deepEqual(rescheduled?.data.arrival_window, to);
      assert.deepEqual(rescheduled?.data.previous_arrival_window, from);
      assert.equal(rescheduled?.data.status, "pending_dispatch");
      assert.equal(rescheduled?.data.rescheduled_by, "customer");
      assert.deepEqual(
        items.map((e) => e.type),
        ["order.created", "order.assigned", "order.rescheduled", "order.eta_updated"],
      );
      const services = t.app.services;
      const outbox = await services.db("webhook_outbox").where({ order_id: id });
      assert.equal(outbox.length, 4);
      const audit = await services.db("audit_records").where({ subject: id, type: "reschedule" }).orderBy("position");
      assert.equal(audit.length, 1);
      const bookings = await services.db("contractor_bookings").where({ order_id: id });
      assert.deepEqual(
        bookings.map((b) => new Date(b.window_start).getTime()),
        [Date.parse(to.start)],
      );
      await order(from); // capacity 1: the old window took a new order only because the move freed it
    });

    it("answers 409 window_unavailable naming a full window, and leaves the order where it was", async () => {
      const [mine, full] = [windows[2], windows[12]];
      const id = await order(mine);
      await order(full);
      const refused = await reschedule(id, full);
      assert.equal(refused.status, 409);
      const problem = (await refused.json()) as Problem;
      assert.equal(problem.code, "window_unavailable");
      assert.ok(problem.detail.includes(full.start), problem.detail);
      assert.match(problem.detail, / is full: its seats \(capacity\.concurrent_jobs\)/);
      assert.deepEqual((await view(id)).arrival_window, mine);
      assert.equal((await reschedule(id, windows.at(-1)!)).status, 200);
    });

    it("says why a window cannot take the order: passed, beyond its urgency's horizon, off its contractor's hours", async () => {
      const id = await order(windows[11]);
      const now = Date.parse(windows[0].end); // no later than the business clock's now plus two hours
      const past = await reschedule(id, anchorageWindow(now - 3 * 24 * hour, "10"));
      assert.match(((await past.json()) as Problem).detail, / has passed /);
      const far = await reschedule(id, anchorageWindow(now + 8 * 24 * hour, "10"));
      assert.match(((await far.json()) as Problem).detail, / is beyond the routine horizon: /);
      // its contractor now works Monday mornings only: an afternoon is outside its hours
      const hours = { monday: [{ start: "08:00", end: "12:00" }] };
      const patch = (working_hours: unknown) =>
        jsonRequest(t, "PATCH", `/api/admin/v1/contractors/${contractorId}`, {
          headers: { authorization: `Bearer ${adminToken}` },
          body: { working_hours },
        });
      assert.equal((await patch(hours)).status, 200);
      try {
        await untilValue(async () => {
          const quote = await jsonRequest(t, "POST", "/api/dispatch/v1/quote", {
            headers: headers(key),
            body: { trade, location, urgency: "routine" },
          });
          const open = ((await quote.json()) as S["Quote"]).arrival_windows ?? [];
          return open.some((w) => w.start.includes("T14:00:00")) ? undefined : true; // the pool has the new hours
        });
        // an afternoon (written in Anchorage's offset) other than the order's own window
        const afternoon = windows.find((w) => w.start.includes("T14:00:00") && w !== windows[11])!;
        const off = await reschedule(id, afternoon);
        assert.equal(off.status, 409);
        const problem = (await off.json()) as Problem;
        assert.equal(problem.code, "window_unavailable");
        assert.match(problem.detail, / is outside the working hours of the order's contractor;/);
      } finally {
        assert.equal((await patch(allWeek)).status, 200);
      }
      assert.deepEqual((await view(id)).arrival_window, windows[11]);
    });

    it("lets only one of two orders moving at once into the last seat of a window have it", async () => {
      const [a, b] = [await order(windows[8]), await order(windows[9])];
      const wanted = windows[22];
      const answers = await Promise.all([reschedule(a, wanted), reschedule(b, wanted)]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409]);
      const seats = await t.app.services
        .db("contractor_bookings")
        .where({ window_start: new Date(wanted.start) })
        .whereNotNull("seat");
      assert.equal(seats.length, 1);
    });

    it("answers the same 200 for the booked window again (any offset), with no second event", async () => {
      const id = await order(windows[3]);
      const target = windows[14];
      const first = (await (await reschedule(id, target)).json()) as S["OrderStatus"];
      const utc = { start: new Date(target.start).toISOString(), end: new Date(target.end).toISOString() };
      for (const again of [target, utc]) {
        const repeat = await reschedule(id, again);
        assert.equal(repeat.status, 200);
        assert.deepEqual(await repeat.json(), first);
      }
      const items = await feed(id, "order.rescheduled");
      assert.equal(items.filter((e) => e.type === "order.rescheduled").length, 1);
    });

    it("answers 422 naming the field for a window off the grid", async () => {
      const id = await order(windows[4]);
      const base = Date.parse(windows[16].start);
      const iso = (ms: number) => new Date(ms).toISOString();
      const booked = windows[4];
      const nanosLater = (text: string) => text.replace(/(T\d\d:\d\d:\d\d)/, "$1.000000001");
      for (const [window, pointer] of [
        [{ start: iso(base + hour), end: iso(base + 3 * hour) }, "/arrival_window/start"],
        [{ start: iso(base), end: iso(base + hour) }, "/arrival_window/end"],
        // a nanosecond off its own window is not that window (and not a no-op 200)
        [{ start: nanosLater(booked.start), end: booked.end }, "/arrival_window/start"],
        [{ start: booked.start, end: nanosLater(booked.end) }, "/arrival_window/end"],
      ] as const) {
        const refused = await reschedule(id, window);
        assert.equal(refused.status, 422);
        const problem = (await refused.json()) as Problem;
        assert.ok(
          problem.errors?.some((e) => e.pointer === pointer),
          JSON.stringify(problem),
        );
      }
    });

    it("answers 409 order_not_reschedulable for an unassigned, an on-site and a cancelled order", async () => {
      const unassigned = await postOrder(t, headers(key), {
        trade: "hvac",
        location,
        description: "Nobody covers this.",
        reference_id: "rs-unassigned",
      });
      assert.equal(unassigned.status, 202);
      const onSite = await order(windows[5]);
      for (const status of ["dispatched", "en_route", "on_site"])
        assert.equal((await recordEvent(t, onSite, { status })).status, 201);
      const cancelled = await order(windows[6]);
      const cancel = await jsonRequest(t, "POST", `/api/dispatch/v1/orders/${cancelled}/cancel`, {
        headers: headers(key),
        body: { reason: "customer_request" },
      });
      assert.equal(cancel.status, 200);
      const ids = [((await unassigned.json()) as { order: { id: string } }).order.id, onSite, cancelled];
      for (const id of ids) {
        const refused = await reschedule(id, windows[18]);
        assert.equal(refused.status, 409);
        assert.equal(((await refused.json()) as Problem).code, "order_not_reschedulable");
      }
    });

    it("is 404 for another account's order and the same account's test key; 403 without the order scope", async () => {
      const id = await order(windows[7]);
      const other = (await t.issueKey({ account: "others", environment: "live" })).key;
      const testKey = (await t.issueKey({ account: "movers", environment: "test" })).key;
      for (const k of [other, testKey]) assert.equal((await reschedule(id, windows[20], k)).status, 404);
      const reader = (await t.issueKey({ account: "movers", environment: "live", scopes: ["orders:read"] })).key;
      const refused = await reschedule(id, windows[20], reader);
      assert.equal(refused.status, 403);
      assert.equal(((await refused.json()) as Problem).code, "insufficient_scope");
      assert.deepEqual((await view(id)).arrival_window, windows[7]);
    });
  });
}
