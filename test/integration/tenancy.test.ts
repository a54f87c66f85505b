// Tenancy inside one account: a test key and a live key of the same account share nothing, every keyed operation
// checks the scope its contract security requirement names, and OAuth tokens never reach key-only operations.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";
import { defaultKeyScopes, keyScopes, operations } from "../../server/generated/operations.js";
import { orderRequest, quoteRequest } from "../fixtures/requests.js";
import { oauthToken, postOrder } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import { jsonRequest } from "../helpers/request.js";

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
          "listContractorJobs",
          "listContractorOffers",
          "listEvents",
          "listOrderEvents",
          "listOrders",
          "listWebhookDeliveries",
          "redeliverWebhookDelivery",
          "requestPriceRevision",
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
