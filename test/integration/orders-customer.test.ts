// listOrders, cancelOrder and the sandbox (advanceSandboxOrder + automatic steps), on every test database.
import assert from "node:assert/strict";
import { anchorageContractor, orderRequest } from "../fixtures/requests.js";
import { postOrder, recordEvent } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import { jsonRequest } from "../helpers/request.js";
import { now } from "../../server/services/shared/clock.js";
import { installBusinessTime } from "../helpers/business-time.js";

const akOrder = { trade: "hvac", location: { state: "AK" }, urgency: "urgent", description: "No heat." } as const;
interface View {
  id: string;
  status: string;
  cancellation: { by: string; reason: string } | null;
  events: unknown[];
}

for (const db of databases()) {
  describe(`customer order lifecycle (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    const call = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
      jsonRequest(t, init.method ?? "GET", `/api/dispatch/v1${path}`, {
        headers: { "x-api-key": init.key ?? key },
        body: init.body,
      });
    const create = async (body: unknown, k = key) =>
      (await (await postOrder(t, { "x-api-key": k }, body)).json()).order.id as string;

    before(async () => {
      t = await startTestServer(db, { WEBHOOK_ALLOW_PRIVATE: "true" }, { inject: true });
      key = (await t.issueKey({ account: "acme" })).key;
    });
    after(() => t?.stop());

    describe("listOrders", () => {
      let ids: string[];
      let k: string;
      before(async () => {
        k = (await t.issueKey({ account: "lister" })).key;
        ids = [];
        for (const n of [1, 2, 3, 4, 5]) ids.push(await create({ ...orderRequest, reference_id: `list-${n}` }, k));
        ids.push(await create({ ...akOrder, reference_id: "list-ak" }, k));
      });

      it("returns only the caller's orders, newest first, paged by cursor with a Link header", async () => {
        const seen: string[] = [];
        let url: string | undefined = `${t.url}/api/dispatch/v1/orders?limit=4`;
        for (let page = 0; page < 5 && url; page++) {
          const response: Response = await t.fetch(url, { headers: { "x-api-key": k } });
          assert.equal(response.status, 200);
          const body = (await response.json()) as { items: View[]; next_cursor: string | null };
          seen.push(...body.items.map((o) => o.id));
          url = /^<([^>]+)>; rel="next"$/.exec(response.headers.get("link") ?? "")?.[1];
          assert.equal(Boolean(url), Boolean(body.next_cursor));
        }
        assert.deepEqual(seen, [...ids].reverse());
      });

      it("filters by repeated status, trade, reference_id and creation time", async () => {
        const ofIds = async (query: string) =>
          ((await (await call(`/orders?${query}`, { key: k })).json()).items as View[]).map((o) => o.id);
        assert.deepEqual(await ofIds("status=accepted_pending_fulfilment"), [ids[5]]);
        assert.equal((await ofIds("status=accepted_pending_fulfilment&status=pending_dispatch")).length, 6);
        assert.deepEqual(await ofIds("trade=hvac"), [ids[5]]);
        assert.deepEqual(await ofIds("reference_id=list-2"), [ids[1]]);
        const future = new Date(now() + 3_600_000).toISOString();
        assert.deepEqual(await ofIds(`created_after=${encodeURIComponent(future)}`), []);
        assert.equal((await ofIds(`created_before=${encodeURIComponent(future)}`)).length, 6);
      });

      it("answers 422 for a foreign cursor, a limit over 200 and an unknown status", async () => {
        for (const query of ["cursor=bm90LWEtY3Vyc29y", "limit=201", "status=lost"])
          assert.equal((await call(`/orders?${query}`, { key: k })).status, 422, query);
      });
    });

    describe("cancelOrder", () => {
      it("cancels before on_site with 200, repeats the same 200, and records the customer (audit, event, webhook)", async () => {
        const id = await create({ ...orderRequest, reference_id: "cancel-1", callback_url: "http://127.0.0.1:9/h" });
        const first = await call(`/orders/${id}/cancel`, { method: "POST", body: { reason: "duplicate", note: "x2" } });
        assert.equal(first.status, 200);
        const body = (await first.json()) as View;
        assert.equal(body.status, "cancelled");
        assert.deepEqual([body.cancellation?.by, body.cancellation?.reason], ["customer", "duplicate"]);
        const again = await call(`/orders/${id}/cancel`, { method: "POST", body: { reason: "other" } });
        assert.equal(again.status, 200);
        assert.deepEqual(await again.json(), body);
        const audit = await t.app.services
          .db("audit_records")
          .where({ subject: id, type: "order_status" })
          .orderBy("position");
        assert.equal(audit.length, 1);
        const outbox = await t.app.services.db("webhook_outbox").where({ order_id: id });
        assert.equal(outbox.length, 3); // creation, its assignment, and the cancellation
      });

      it("answers 409 cannot_cancel once the contractor is on site, 404 for another account's order", async () => {
        const id = await create({ ...orderRequest, reference_id: "cancel-late" });
        for (const status of ["dispatched", "en_route", "on_site"]) await recordEvent(t, id, { status });
        const late = await call(`/orders/${id}/cancel`, { method: "POST", body: { reason: "other" } });
        assert.equal(late.status, 409);
        assert.equal((await late.json()).code, "cannot_cancel");
        const other = (await t.issueKey({ account: "other" })).key;
        const foreign = await call(`/orders/${id}/cancel`, { method: "POST", body: { reason: "other" }, key: other });
        assert.equal(foreign.status, 404);
        assert.equal((await call(`/orders/${id}/cancel`, { method: "POST", body: { reason: "bored" } })).status, 422);
      });

      it("answers 422 naming /reason when a key cancels with the operators' reason operator_decision", async () => {
        const id = await create({ ...orderRequest, reference_id: "cancel-operator-reason" });
        const response = await call(`/orders/${id}/cancel`, { method: "POST", body: { reason: "operator_decision" } });
        assert.equal(response.status, 422);
        const problem = (await response.json()) as { errors: { pointer: string; message: string }[] };
        assert.equal(problem.errors[0]?.pointer, "/reason");
        // The contract's CustomerCancelReason refuses it at validation: the message lists what a key may give.
        assert.match(
          problem.errors[0].message,
          /must be one of \[customer_request, duplicate, resolved_elsewhere, other\]/,
        );
        const row = await t.app.services.db("orders").where({ id }).first("status");
        assert.notEqual(row?.status, "cancelled");
      });

      it("records an operator's cancellation as by operator and counts cancellations in the evals", async () => {
        const live = (await t.issueKey({ account: "acme", environment: "live" })).key; // evals count live orders
        const id = await create({ ...orderRequest, reference_id: "cancel-op" }, live);
        const body = await (await recordEvent(t, id, { status: "cancelled", note: "Customer phoned" })).json();
        assert.deepEqual([body.cancellation.by, body.cancellation.reason], ["operator", "operator_decision"]);
        const evals = await (await t.fetch(`${t.url}/api/dispatch/analytics/evals?period=rolling_7d`)).json();
        assert.ok(evals.metrics.cancellation_rate.value > 0);
      });
    });

    describe("advanceSandboxOrder", () => {
      it("steps one at a time or up to `to`; a 202 order is assigned only once a contractor can take it", async () => {
        const id = await create({ ...akOrder, reference_id: "sandbox-ak" });
        const advance = (body?: unknown) => call(`/sandbox/orders/${id}/advance`, { method: "POST", body });
        // Nobody serves AK: like live, the sandbox invents no contractor.
        const unassigned = await advance();
        assert.equal(unassigned.status, 409);
        assert.equal((await unassigned.json()).code, "no_contractor_in_area");
        await t.app.services.contractors.create(anchorageContractor("hvac", "Anchorage Heating"));
        const assigned = (await (await advance()).json()) as View & { assigned_contractor_ref: string | null };
        assert.equal(assigned.status, "pending_dispatch");
        assert.ok(assigned.assigned_contractor_ref);
        const same = await advance({ to: "pending_dispatch" });
        assert.equal(same.status, 409);
        assert.equal(
          (await same.json()).detail,
          `order ${id} is pending_dispatch; pending_dispatch is not ahead of it (the sandbox only moves forward).`,
        );
        const done = await advance({ to: "completed" });
        const body = (await done.json()) as View & { final_cost_cents: number | null };
        assert.equal(done.status, 200);
        assert.deepEqual(
          (body.events as { status: string }[]).map((e) => e.status),
          ["accepted_pending_fulfilment", "pending_dispatch", "dispatched", "en_route", "on_site", "completed"],
        );
        assert.ok(body.final_cost_cents! > 0);
        const final = await advance();
        assert.equal(final.status, 409);
        assert.equal((await final.json()).detail, `order ${id} is completed; a final order takes no more steps.`);
        const audit = await t.app.services
          .db("audit_records")
          .where({ subject: id, type: "order_status" })
          .orderBy("position");
        assert.equal(audit.length, 5);
      });

      it("answers a cancelled order's advance with a 409 that says a final order takes no more steps", async () => {
        const id = await create({ ...orderRequest, reference_id: "sandbox-cancelled" });
        await call(`/orders/${id}/cancel`, { method: "POST", body: { reason: "duplicate" } });
        const response = await call(`/sandbox/orders/${id}/advance`, { method: "POST" });
        assert.equal(response.status, 409);
        const problem = (await response.json()) as { code: string; detail: string };
        assert.deepEqual(
          [problem.code, problem.detail],
          ["invalid_transition", `order ${id} is cancelled; a final order takes no more steps.`],
        );
      });

      it("answers 403 live_key for a live key", async () => {
        const live = (await t.issueKey({ account: "acme", environment: "live" })).key;
        const id = await create({ ...orderRequest, reference_id: "sandbox-live" }, live);
        const response = await call(`/sandbox/orders/${id}/advance`, { method: "POST", key: live });
        assert.equal(response.status, 403);
        assert.equal((await response.json()).code, "live_key");
        // the suite's test key does not see the live order at all
        assert.equal((await call(`/sandbox/orders/${id}/advance`, { method: "POST" })).status, 404);
      });
    });
  });

  describe(`sandbox steps by itself (${db.name})`, function () {
    this.timeout(120_000);
    it("moves a test-key order to completed and leaves a live-key order where it is", async () => {
      const restoreClock = installBusinessTime(); // the window under way is reachable: the walk does not wait for one
      const t = await startTestServer(db, { SANDBOX_STEP_MS: "20" }); // a port: the sandbox walker calls the server over HTTP
      try {
        const order = async (k: string, ref: string) =>
          (await (await postOrder(t, { "x-api-key": k }, { ...orderRequest, reference_id: ref })).json()).order;
        const test = await order((await t.issueKey({ account: "s" })).key, "auto-test");
        const liveKey = (await t.issueKey({ account: "s", environment: "live" })).key;
        const live = await order(liveKey, "auto-live");
        const status = async () => (await t.app.services.db("orders").where({ id: test.id }).first("status"))!.status;
        await until(async () => (await status()) === "completed", {
          timeoutMs: 10_000,
          message: "the test order completed",
        });
        const liveRow = (await t.app.services.db("orders").where({ id: live.id }).first("status"))!;
        assert.equal(liveRow.status, "pending_dispatch");
        const events = await t.app.services.db("order_events").where({ order_id: test.id }).orderBy("id");
        assert.deepEqual(
          events.map((e) => e.type),
          [
            "order.created",
            "order.assigned",
            "order.status_changed",
            "order.assigned", // its contractor accepted the offer (acceptOffer), as live
            "order.status_changed",
            "order.eta_updated", // setting off, the sandbox's contractor re-estimates its arrival
            "order.status_changed",
            "order.status_changed",
            "order.completed",
          ],
        );
      } finally {
        await t.stop();
        restoreClock();
      }
    });
  });
}
