// resetSandbox empties one account's test environment and nothing else, on every test database.
import assert from "node:assert/strict";
import { orderRequest, quoteRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

for (const db of databases()) {
  describe(`sandbox reset (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    const tenants = { acme: "", acmeLive: "", other: "" };
    const reset = (key: string) =>
      t.fetch(`${t.url}/api/dispatch/v1/sandbox/reset`, { method: "POST", headers: { "x-api-key": key } });
    const quote = (key: string) =>
      t.fetch(`${t.url}/api/dispatch/v1/quote`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify(quoteRequest),
      });
    /** Rows of a tenant in each table reset touches, and its audit records. */
    async function countsOf(account: string, environment: string) {
      const knex = t.app.services.db;
      const tenant = { account, environment };
      const n = async (q: Promise<{ n: string | number }[]>) => Number((await q)[0].n);
      return {
        orders: await n(knex("orders").where(tenant).count({ n: "*" })),
        quotes: await n(knex("quotes").where(tenant).count({ n: "*" })),
        // by order: an event row gets its tenant columns from the feed sequencer, a moment after it commits
        events: await n(
          knex("order_events").whereIn("order_id", knex("orders").where(tenant).select("id")).count({ n: "*" }),
        ),
        webhook_deliveries: await n(knex("webhook_outbox").where(tenant).count({ n: "*" })),
        audit: await n(knex("audit_records").where(tenant).count({ n: "*" })),
      };
    }
    /** Two orders (one with a callback, so a delivery) and a quote for a key. */
    async function fill(key: string) {
      for (const [n, callback] of [
        [1, "http://127.0.0.1:9/hook"],
        [2, undefined],
      ] as const) {
        const body = { ...orderRequest, reference_id: `reset-${n}`, ...(callback ? { callback_url: callback } : {}) };
        const response = await postOrder(t, { "x-api-key": key, "idempotency-key": `idem-${n}` }, body);
        assert.equal(response.status, 201, await response.clone().text());
      }
      assert.equal((await quote(key)).status, 200);
    }

    before(async () => {
      t = await startTestServer(db, { WEBHOOK_ALLOW_PRIVATE: "true" }, { inject: true });
      tenants.acme = (await t.issueKey({ account: "acme", environment: "test" })).key;
      tenants.acmeLive = (await t.issueKey({ account: "acme", environment: "live" })).key;
      tenants.other = (await t.issueKey({ account: "other", environment: "test" })).key;
      for (const key of Object.values(tenants)) await fill(key);
    });
    after(() => t?.stop());

    it("removes the account's test orders, quotes, events and deliveries, and says how many", async () => {
      const before = await countsOf("acme", "test");
      assert.ok(before.orders === 2 && before.quotes === 1 && before.events > 0 && before.webhook_deliveries > 0);
      const response = await reset(tenants.acme);
      assert.equal(response.status, 200);
      const body = await response.json();
      assert.deepEqual(body.removed, {
        orders: before.orders,
        quotes: before.quotes,
        events: before.events,
        webhook_deliveries: before.webhook_deliveries,
      });
      assert.deepEqual([body.account, body.environment], ["acme", "test"]);
      const after = await countsOf("acme", "test");
      assert.deepEqual([after.orders, after.quotes, after.events, after.webhook_deliveries], [0, 0, 0, 0]);
      const listed = await t.fetch(`${t.url}/api/dispatch/v1/orders`, { headers: { "x-api-key": tenants.acme } });
      assert.deepEqual((await listed.json()).items, []);
    });

    it("keeps the audit records, under the test environment, and audits the reset itself", async () => {
      const { audit } = await countsOf("acme", "test");
      const response = await reset(tenants.acme);
      const body = await response.json();
      assert.equal(body.audit_records_kept, audit + 1);
      const knex = t.app.services.db;
      const orderRecords = await knex("audit_records").where({ account: "acme", type: "order", environment: "test" });
      assert.equal(orderRecords.length, 2); // the removed orders' records stay
      const resets = await knex("audit_records").where({ account: "acme", type: "sandbox_reset" }).orderBy("position");
      assert.equal(resets.length, 2);
      assert.ok(resets.every((r) => r.environment === "test"));
      assert.deepEqual(JSON.parse(resets[0].content).removed.orders, 2);
      const listed = await t.fetch(`${t.url}/api/audit/v1/records?limit=200`, {
        headers: { "x-api-key": tenants.acme },
      });
      assert.equal(listed.status, 200);
      const types = ((await listed.json()).items as { type: string }[]).map((r) => r.type);
      assert.ok(types.includes("order") && types.includes("sandbox_reset"), types.join());
    });

    it("leaves live data and other accounts untouched", async () => {
      for (const [account, environment] of [
        ["acme", "live"],
        ["other", "test"],
      ]) {
        const counts = await countsOf(account, environment);
        assert.equal(counts.orders, 2, `${account} ${environment}`);
        assert.equal(counts.quotes, 1, `${account} ${environment}`);
        assert.ok(counts.events > 0 && counts.webhook_deliveries > 0, `${account} ${environment}`);
      }
    });

    it("frees the reference ids and idempotency keys for the next run", async () => {
      await fill(tenants.acme); // the same reference_id and Idempotency-Key: 201, not a replay or a conflict
      assert.equal((await countsOf("acme", "test")).orders, 2);
    });

    it("answers 403 live_key to a live key, and removes nothing", async () => {
      const before = await countsOf("acme", "live");
      const response = await reset(tenants.acmeLive);
      assert.equal(response.status, 403);
      assert.match(response.headers.get("content-type") ?? "", /application\/problem\+json/);
      assert.equal((await response.json()).code, "live_key");
      assert.deepEqual(await countsOf("acme", "live"), before);
    });

    it("answers 401 without a key and 403 insufficient_scope to a key without order", async () => {
      assert.equal((await t.fetch(`${t.url}/api/dispatch/v1/sandbox/reset`, { method: "POST" })).status, 401);
      const quoteOnly = (await t.issueKey({ account: "acme", scopes: ["quote"] })).key;
      const response = await reset(quoteOnly);
      assert.equal(response.status, 403);
      assert.equal((await response.json()).code, "insufficient_scope");
    });
  });
}
