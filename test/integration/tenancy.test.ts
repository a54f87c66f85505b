// Tenancy inside one account: a test key and a live key of the same account share nothing, every keyed operation
// checks the scope its contract security requirement names, and OAuth tokens never reach key-only operations.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";
import { defaultKeyScopes, keyScopes, operations } from "../../server/generated/operations.js";
import { orderRequest, quoteRequest } from "../fixtures/requests.js";
import { oauthToken, postOrder } from "../fixtures/orders.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import { jsonRequest } from "../helpers/request.js";
import { now } from "../../server/services/shared/clock.js";

const v1 = "/api/dispatch/v1";

const call = (t: TestServer, method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  jsonRequest(t, method, path, { headers, body });

for (const db of databases()) {
  describe(`tenancy (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let test: string;
    let live: string;
    let liveOrder: string;

    before(async () => {
      t = await startTestServer(db, { WEBHOOK_ALLOW_PRIVATE: "true" }, { inject: true });
      test = (await t.issueKey({ account: "twins", environment: "test" })).key;
      live = (await t.issueKey({ account: "twins", environment: "live" })).key;
      const made = await postOrder(t, { "x-api-key": live }, { ...orderRequest, reference_id: "live-1" });
      assert.equal(made.status, 201);
      liveOrder = (await made.json()).order.id;
    });
    after(() => t.stop());

    describe("a test key and a live key of one account", () => {
      it("the test key reads, cancels and advances none of the live orders (404), and the live order is untouched", async () => {
        assert.equal((await call(t, "GET", `${v1}/orders/${liveOrder}`, { "x-api-key": test })).status, 404);
        const cancel = await call(
          t,
          "POST",
          `${v1}/orders/${liveOrder}/cancel`,
          { "x-api-key": test },
          { reason: "other" },
        );
        assert.equal(cancel.status, 404);
        const advance = await call(
          t,
          "POST",
          `${v1}/sandbox/orders/${liveOrder}/advance`,
          { "x-api-key": test },
          { to: "completed" },
        );
        assert.equal(advance.status, 404);
        const seen = await (await call(t, "GET", `${v1}/orders/${liveOrder}`, { "x-api-key": live })).json();
        assert.equal(seen.status, "pending_dispatch");
        assert.equal(seen.cancellation ?? null, null);
      });

      it("a live key cannot advance by hand (403 live_key)", async () => {
        const advance = await call(t, "POST", `${v1}/sandbox/orders/${liveOrder}/advance`, { "x-api-key": live }, {});
        assert.equal(advance.status, 403);
        assert.equal((await advance.json()).code, "live_key");
      });

      it("lists, events, deliveries and audit records of one environment never show the other's", async () => {
        const testOrder = (await (await postOrder(t, { "x-api-key": test }, orderRequest)).json()).order.id;
        const ids = async (key: string) =>
          ((await (await call(t, "GET", `${v1}/orders`, { "x-api-key": key })).json()).items as { id: string }[]).map(
            (o) => o.id,
          );
        assert.ok((await ids(test)).includes(testOrder));
        assert.ok(!(await ids(test)).includes(liveOrder));
        assert.ok((await ids(live)).includes(liveOrder));
        assert.ok(!(await ids(live)).includes(testOrder));
        const events = async (key: string) =>
          (
            (await (await call(t, "GET", `${v1}/events`, { "x-api-key": key })).json()).items as {
              data: { order_id: string };
            }[]
          ).map((e) => e.data.order_id);
        assert.ok((await events(test)).includes(testOrder));
        assert.ok(!(await events(test)).includes(liveOrder));
        assert.ok(!(await events(live)).includes(testOrder));
        const subjects = async (key: string) =>
          (
            (await (await call(t, "GET", "/api/audit/v1/records", { "x-api-key": key })).json()).items as {
              subject: string;
            }[]
          ).map((r) => r.subject);
        assert.ok((await subjects(test)).includes(testOrder));
        assert.ok(!(await subjects(test)).includes(liveOrder));
        assert.ok((await subjects(live)).includes(liveOrder));
        assert.ok(!(await subjects(live)).includes(testOrder));
      });

      it("a reference_id used by a test order is a new order in live, not a replay of the sandbox one", async () => {
        const body = { ...orderRequest, reference_id: "shared-ref" };
        const sandbox = await postOrder(t, { "x-api-key": test }, body);
        assert.equal(sandbox.status, 201);
        const real = await postOrder(t, { "x-api-key": live }, body);
        assert.equal(real.status, 201);
        assert.equal(real.headers.get("idempotent-replayed"), null);
        assert.notEqual((await real.json()).order.id, (await sandbox.json()).order.id);
        const again = await postOrder(t, { "x-api-key": live }, body);
        assert.equal(again.headers.get("idempotent-replayed"), "true");
      });

      it("an Idempotency-Key is scoped by environment too", async () => {
        const key = { "idempotency-key": "idem-twins-1" };
        const body = { ...orderRequest, reference_id: undefined };
        const a = await postOrder(t, { "x-api-key": test, ...key }, body);
        const b = await postOrder(t, { "x-api-key": live, ...key }, body);
        assert.equal(a.status, 201);
        assert.equal(b.headers.get("idempotent-replayed"), null);
        assert.notEqual((await a.json()).order.id, (await b.json()).order.id);
      });

      it("each environment has its own webhook signing secret, and rotating one leaves the other", async () => {
        const secret = async (key: string) =>
          (await call(t, "GET", `${v1}/webhooks/secret`, { "x-api-key": key })).json();
        const [a, b] = [await secret(test), await secret(live)];
        assert.equal(a.environment, "test");
        assert.equal(b.environment, "live");
        assert.notEqual(a.secret, b.secret);
        const rotated = await (await call(t, "POST", `${v1}/webhooks/secret/rotate`, { "x-api-key": test })).json();
        assert.equal(rotated.environment, "test");
        assert.equal((await secret(live)).secret, b.secret);
      });

      it("a live order cannot be made from a test key's quote (404)", async () => {
        const quote = await (await call(t, "POST", `${v1}/quote`, { "x-api-key": test }, quoteRequest)).json();
        const ordered = await postOrder(
          t,
          { "x-api-key": live },
          { ...orderRequest, reference_id: "from-test-quote", quote_id: quote.quote_id },
        );
        assert.equal(ordered.status, 404);
      });

      it("a live order's webhooks verify with the live secret and not with the test secret", async () => {
        const received: { headers: Record<string, string>; body: string }[] = [];
        const receiver = createServer((req, res) => {
          let body = "";
          req.on("data", (chunk: Buffer) => (body += chunk.toString()));
          req.on("end", () => {
            received.push({ headers: req.headers as Record<string, string>, body });
            res.end("ok");
          });
        });
        await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
        try {
          const port = (receiver.address() as { port: number }).port;
          const body = { ...orderRequest, reference_id: "hooked", callback_url: `http://127.0.0.1:${port}/hook` };
          assert.equal((await postOrder(t, { "x-api-key": live }, body)).status, 201);
          await until(() => received.length > 0, { timeoutMs: 10_000, intervalMs: 100, message: "the live delivery" });
          const secret = async (key: string) =>
            (await (await call(t, "GET", `${v1}/webhooks/secret`, { "x-api-key": key })).json()).secret as string;
          const [liveSecret, testSecret] = [await secret(live), await secret(test)];
          const [{ headers, body: text }] = received;
          assert.doesNotThrow(() => new Webhook(liveSecret).verify(text, headers));
          assert.throws(() => new Webhook(testSecret).verify(text, headers));
        } finally {
          receiver.close();
        }
      });
    });

    describe("scopes from the contract", () => {
      // Every keyed operation, refused to a key holding every scope but the one its requirement names.
      const keyed = Object.entries(operations)
        .map(([operationId, operation]) => ({
          operationId,
          ...operation,
          schemes: operation.schemes as { ApiKey?: readonly string[] },
        }))
        .filter((access) => (access.schemes.ApiKey ?? []).length > 0);

      it("the table covers every keyed REST operation of the contract", () => {
        assert.deepEqual(keyed.map((a) => a.operationId).sort(), [
          "acceptOffer",
          "advanceSandboxClock",
          "advanceSandboxOrder",
          "approvePriceRevision",
          "cancelOrder",
          "createOrder",
          "createQuote",
          "declineOffer",
          "declinePriceRevision",
          "getAccountWebhookSecret",
          "getOrder",
          "getSandboxClock",
          "listAuditRecords",
          "listContractorEvents",
          "listContractorJobs",
          "listContractorOffers",
          "listEvents",
          "listJobWindows",
          "listOrderEvents",
          "listOrders",
          "listWebhookDeliveries",
          "redeliverWebhookDelivery",
          "requestPriceRevision",
          "rescheduleJob",
          "rescheduleOrder",
          "resetSandbox",
          "rotateWebhookSecret",
          "updateJobStatus",
        ]);
      });

      for (const access of keyed)
        it(`${access.operationId}: a key without ${access.schemes.ApiKey!.join(", ")} is refused (${access.entitlement ? 402 : 403})`, async () => {
          const { method, path: template } = access;
          // every customer scope but the one needed (a contractor operation: a customer key with all of them)
          const scopes = defaultKeyScopes.filter((scope) => !access.schemes.ApiKey!.includes(scope));
          const key = (await t.issueKey({ account: "twins", environment: "test", scopes })).key;
          const path = template
            .replace("{id}", "ord_x")
            .replace("{revision_id}", "prv_x")
            .replace("deliveries/ord_x", "deliveries/dlv_1");
          const response = await call(t, method, path, { "x-api-key": key }, method === "POST" ? {} : undefined);
          if (access.entitlement) {
            assert.equal(response.status, 402);
            assert.equal((await response.json()).error, "payment_required");
            return;
          }
          assert.equal(response.status, 403);
          assert.match(response.headers.get("content-type") ?? "", /application\/problem\+json/);
          const problem = await response.json();
          assert.equal(problem.code, "insufficient_scope");
          assert.equal(
            response.headers.get("www-authenticate"),
            `ApiKey realm="dispatch", error="insufficient_scope", scope="${access.schemes.ApiKey!.join(" ")}"`,
          );
        });

      it("a quote-only key quotes and estimates, and nothing else", async () => {
        const key = (await t.issueKey({ account: "twins", environment: "live", scopes: ["quote"] })).key;
        const headers = { "x-api-key": key };
        assert.equal((await call(t, "POST", `${v1}/quote`, headers, quoteRequest)).status, 200);
        assert.equal(
          (await call(t, "POST", `${v1}/estimate`, headers, { trade: "hvac", location: { state: "CA" } })).status,
          200,
        );
        assert.equal((await postOrder(t, headers, { ...orderRequest, reference_id: "q-only" })).status, 402);
        for (const [method, path] of [
          ["GET", `${v1}/orders`],
          ["GET", `${v1}/orders/${liveOrder}`],
          ["POST", `${v1}/orders/${liveOrder}/cancel`],
          ["GET", `${v1}/events`],
          ["GET", `${v1}/webhooks/secret`],
          ["POST", `${v1}/webhooks/secret/rotate`],
          ["GET", `${v1}/webhooks/deliveries`],
          ["GET", "/api/audit/v1/records"],
        ])
          assert.equal(
            (await call(t, method, path, headers, method === "POST" ? { reason: "other" } : undefined)).status,
            403,
            path,
          );
      });

      it("a quote-only key cannot rotate the signing secret: the live secret stays as it was", async () => {
        const before = (await (await call(t, "GET", `${v1}/webhooks/secret`, { "x-api-key": live })).json()).secret;
        const key = (await t.issueKey({ account: "twins", environment: "live", scopes: ["quote"] })).key;
        for (let i = 0; i < 4; i++)
          assert.equal((await call(t, "POST", `${v1}/webhooks/secret/rotate`, { "x-api-key": key })).status, 403);
        assert.equal(
          (await (await call(t, "GET", `${v1}/webhooks/secret`, { "x-api-key": live })).json()).secret,
          before,
        );
      });

      it("new keys get every scope unless asked otherwise", async () => {
        const issued = await t.issueKey({ account: "twins" });
        const listed = await t.fetch(`${t.url}/api/admin/v1/keys?account=twins`, {
          headers: { authorization: "Bearer test-admin-token-0123456789" },
        });
        const key = ((await listed.json()).items as { id: string; scopes: string[] }[]).find(
          (k) => k.id === issued.id,
        )!;
        // every customer scope: the contractor scopes are only for contractor keys (createContractorKey)
        assert.deepEqual(
          key.scopes,
          keyScopes.filter((scope) => !scope.startsWith("contractor:")),
        );
      });
    });

    describe("OAuth tokens on key-only operations", () => {
      const keyOnly = [
        ["GET", `${v1}/events`],
        ["GET", `${v1}/webhooks/secret`],
        ["POST", `${v1}/webhooks/secret/rotate`],
        ["GET", `${v1}/webhooks/deliveries`],
        ["POST", `${v1}/webhooks/deliveries/dlv_1/redeliver`],
        ["GET", `${v1}/orders`],
        ["GET", `${v1}/orders/ord_x`],
        ["GET", "/api/audit/v1/records"],
      ] as const;

      it("get 401 (never 500) in x-api-key and as Bearer, with and without Accept: text/event-stream", async () => {
        const token = await oauthToken(t);
        for (const [method, path] of keyOnly)
          for (const headers of [
            { "x-api-key": token },
            { authorization: `Bearer ${token}` },
            { "x-api-key": token, accept: "text/event-stream" },
          ] as Record<string, string>[]) {
            const response = await call(t, method, path, headers);
            assert.equal(response.status, 401, `${method} ${path} ${Object.keys(headers).join("+")}`);
            assert.match(response.headers.get("content-type") ?? "", /problem\+json/);
            await response.body?.cancel();
          }
      });

      it("still quote (x-api-key or Bearer), and get 402 on order creation", async () => {
        const token = await oauthToken(t);
        assert.equal((await call(t, "POST", `${v1}/quote`, { "x-api-key": token }, quoteRequest)).status, 200);
        assert.equal(
          (await call(t, "POST", `${v1}/quote`, { authorization: `Bearer ${token}` }, quoteRequest)).status,
          200,
        );
        assert.equal((await postOrder(t, { authorization: `Bearer ${token}` }, orderRequest)).status, 402);
      });
    });

    // Contractor keys (issue #34, Done-when): the contractor holding a live job, the same contractor's test key,
    // another contractor and a revoked key of the holder, against the customer's event surfaces (feed, order feed,
    // SSE, webhook secret and deliveries, audit, MCP, A2A) and the new operations (jobs, revisions) pairwise.
    describe("contractor keys", () => {
      const admin = { authorization: `Bearer ${adminToken}` };
      let orderId: string;
      let holder: string;
      let holderTest: string;
      let other: string;
      let revoked: string;

      const contractorKey = async (id: string, environment: "live" | "test") => {
        const issued = await call(t, "POST", `/api/admin/v1/contractors/${id}/keys`, admin, { environment });
        assert.equal(issued.status, 201);
        return (await issued.json()) as { id: string; key: string };
      };

      before(async () => {
        const made = await postOrder(t, { "x-api-key": live }, { ...orderRequest, reference_id: "ctr-held" });
        assert.equal(made.status, 201);
        const order = ((await made.json()) as { order: { id: string; assigned_contractor_ref: string } }).order;
        orderId = order.id;
        const pool = (await (await call(t, "GET", "/api/admin/v1/contractors?limit=200", admin)).json()) as {
          items: { id: string; ref: string }[];
        };
        const held = pool.items.find((c) => c.ref === order.assigned_contractor_ref)!;
        const another = pool.items.find((c) => c.ref !== order.assigned_contractor_ref)!;
        holder = (await contractorKey(held.id, "live")).key;
        holderTest = (await contractorKey(held.id, "test")).key;
        other = (await contractorKey(another.id, "live")).key;
        const gone = await contractorKey(held.id, "live");
        assert.equal((await call(t, "DELETE", `/api/admin/v1/keys/${gone.id}`, admin)).status, 200);
        revoked = gone.key;
        const offers = (await (await call(t, "GET", `${v1}/contractor/offers`, { "x-api-key": holder })).json()) as {
          items: { id: string; job: { order_id: string } }[];
        };
        const offer = offers.items.find((o) => o.job.order_id === orderId)!;
        const accepted = await call(t, "POST", `${v1}/contractor/offers/${offer.id}/accept`, { "x-api-key": holder });
        assert.equal(accepted.status, 200);
      });

      const eventSurfaces = () =>
        [
          ["GET", `${v1}/events`, {}],
          ["GET", `${v1}/events`, { accept: "text/event-stream" }],
          ["GET", `${v1}/orders/${orderId}/events`, {}],
          ["GET", `${v1}/orders/${orderId}/events`, { accept: "text/event-stream" }],
          ["GET", `${v1}/webhooks/secret`, {}],
          ["POST", `${v1}/webhooks/secret/rotate`, {}],
          ["GET", `${v1}/webhooks/deliveries`, {}],
          ["POST", `${v1}/webhooks/deliveries/dlv_1/redeliver`, {}],
          ["GET", "/api/audit/v1/records", {}],
        ] as const;

      it("are refused the customer's event surfaces, even the job's own contractor: 403, revoked 401", async () => {
        const secret = async () =>
          ((await (await call(t, "GET", `${v1}/webhooks/secret`, { "x-api-key": live })).json()) as { secret: string })
            .secret;
        const before = await secret();
        for (const [key, status] of [
          [holder, 403],
          [holderTest, 403],
          [other, 403],
          [revoked, 401],
        ] as const)
          for (const [method, path, extra] of eventSurfaces()) {
            const response = await call(t, method, path, { "x-api-key": key, ...extra });
            const what = `${method} ${path} ${JSON.stringify(extra)}`;
            assert.equal(response.status, status, what);
            assert.match(response.headers.get("content-type") ?? "", /problem\+json/, what);
            const body = (await response.json()) as { code?: string };
            if (status === 403) assert.equal(body.code, "insufficient_scope", what);
          }
        assert.equal(await secret(), before, "a contractor key rotated the customer's secret");
      });

      it("are refused the MCP and A2A endpoints (the revision tools among them): 403, revoked 401", async () => {
        const accept = "application/json, text/event-stream";
        const tool = {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "dispatch.approve_price_revision", arguments: { id: orderId, revision_id: "prv_x" } },
        };
        for (const [key, status] of [
          [holder, 403],
          [holderTest, 403],
          [other, 403],
          [revoked, 401],
        ] as const) {
          const mcp = await call(t, "POST", "/api/mcp", { authorization: `Bearer ${key}`, accept }, tool);
          assert.equal(mcp.status, status);
          await mcp.body?.cancel();
          const a2a = await call(t, "POST", "/api/a2a", { "x-api-key": key }, { ...tool, method: "tasks/get" });
          assert.equal(a2a.status, status);
          await a2a.body?.cancel();
        }
      });

      it("reach jobs and revisions only as the job's contractor in its environment; customers 403, revoked 401", async () => {
        const eta = new Date(now() + 30 * 60_000).toISOString();
        const report = { status: "en_route", estimated_arrival_at: eta };
        const ask = { amount_cents: 10_000_000, reason: "More work than quoted." };
        const jobs = async (key: string) =>
          (await (await call(t, "GET", `${v1}/contractor/jobs`, { "x-api-key": key })).json()) as {
            items: { job: { order_id: string } }[];
          };
        assert.ok((await jobs(holder)).items.some((j) => j.job.order_id === orderId));
        for (const key of [holderTest, other])
          assert.ok(!(await jobs(key)).items.some((j) => j.job.order_id === orderId));
        for (const [key, status] of [
          [holderTest, 404], // test vs live
          [other, 404], // contractor B vs A
          [live, 403], // the customer: no contractor scope
          [test, 403],
          [revoked, 401],
        ] as const) {
          const status1 = await call(
            t,
            "POST",
            `${v1}/contractor/jobs/${orderId}/status`,
            { "x-api-key": key },
            report,
          );
          assert.equal(status1.status, status, `status as ${String(status)}`);
          await status1.body?.cancel();
          const revise = await call(
            t,
            "POST",
            `${v1}/contractor/jobs/${orderId}/price-revisions`,
            { "x-api-key": key },
            ask,
          );
          assert.equal(revise.status, status, `revise as ${String(status)}`);
          await revise.body?.cancel();
        }
        const listed = await call(t, "GET", `${v1}/contractor/jobs`, { "x-api-key": revoked });
        assert.equal(listed.status, 401);
        await listed.body?.cancel();
        // a revision the job's contractor asks for: the customer's to answer, in its environment only
        const asked = await call(
          t,
          "POST",
          `${v1}/contractor/jobs/${orderId}/price-revisions`,
          { "x-api-key": holder },
          ask,
        );
        assert.equal(asked.status, 201);
        const revision = ((await asked.json()) as { id: string }).id;
        for (const [key, status] of [
          [holder, 403],
          [other, 403],
          [revoked, 401],
          [test, 404],
        ] as const)
          for (const verb of ["approve", "decline"]) {
            const path = `${v1}/orders/${orderId}/price-revisions/${revision}/${verb}`;
            const answered = await call(t, "POST", path, { "x-api-key": key }, {});
            assert.equal(answered.status, status, `${verb} as ${String(status)}`);
            await answered.body?.cancel();
          }
        const order = (await (await call(t, "GET", `${v1}/orders/${orderId}`, { "x-api-key": live })).json()) as {
          status: string;
          price_revision: { status: string };
        };
        assert.deepEqual([order.status, order.price_revision.status], ["dispatched", "pending"]);
      });

      it("list a job's windows (listJobWindows) only as its contractor in its environment, pairwise", async () => {
        const stranger = (await t.issueKey({ account: "stranger", environment: "live" })).key;
        const path = `${v1}/contractor/jobs/${orderId}/windows`;
        const own = await call(t, "GET", path, { "x-api-key": holder });
        assert.equal(own.status, 200);
        const windows = (await own.json()) as { order_id: string; windows: unknown[] };
        assert.equal(windows.order_id, orderId);
        // the windows say nothing of the customer: its account, reference or callback
        for (const hidden of ["twins", "ctr-held", "callback"]) assert.ok(!JSON.stringify(windows).includes(hidden));
        for (const [key, status, who] of [
          [holderTest, 404, "the holder's test key (test vs live)"],
          [other, 404, "another contractor (B vs A)"],
          [live, 403, "the order's customer (no contractor scope)"],
          [test, 403, "the customer's test key"],
          [stranger, 403, "another account's customer"],
          [revoked, 401, "the holder's revoked key"],
        ] as const) {
          const response = await call(t, "GET", path, { "x-api-key": key });
          assert.equal(response.status, status, who);
          const body = (await response.json()) as { code?: string; windows?: unknown };
          assert.equal(body.windows, undefined, who);
          if (status === 403) assert.equal(body.code, "insufficient_scope", who);
        }
        // another order of the same customer, not the holder's job: 404 to the holder as to any contractor
        assert.equal(
          (await call(t, "GET", `${v1}/contractor/jobs/${liveOrder}/windows`, { "x-api-key": other })).status,
          404,
        );
      });
    });

    describe("evals", () => {
      it("count live orders only: sandbox orders move no figure", async () => {
        const evals = async () =>
          (
            (await (await t.fetch(`${t.url}/api/dispatch/analytics/evals?period=rolling_7d`)).json()) as {
              metrics: Record<string, { sample_size: number }>;
            }
          ).metrics;
        const before = await evals();
        for (let i = 0; i < 5; i++)
          assert.equal(
            (await postOrder(t, { "x-api-key": test }, { ...orderRequest, reference_id: `sbx-${i}` })).status,
            201,
          );
        assert.deepEqual(await evals(), before);
        await postOrder(t, { "x-api-key": live }, { ...orderRequest, reference_id: "counted" });
        const after = await evals();
        assert.equal(after.goal_fulfillment_rate.sample_size, before.goal_fulfillment_rate.sample_size + 1);
      });
    });
  });
}
