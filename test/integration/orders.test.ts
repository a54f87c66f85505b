// createOrder and getOrder (spec §2.1, §2.2, §4.4, §5, §7) on every test database.
import assert from "node:assert/strict";
import { orderRequest } from "../fixtures/requests.js";
import { assignmentEta, getOrder, oauthToken, postOrder } from "../fixtures/orders.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";

const entitlementBody = {
  error: "payment_required",
  message: "This credential can quote but is not entitled to create orders.",
  entitled_credential: "A provisioned integration key (x-api-key) with the order scope.",
  provisioning_contact: "provisioning@dispatch.example",
  free_alternatives: [
    "dispatch.quote",
    "dispatch.estimate",
    "dispatch.index",
    "dispatch.evals",
    "agentic.readiness_probe",
  ],
};

for (const db of databases()) {
  describe(`orders (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db, { WEBHOOK_ALLOW_PRIVATE: "true" }, { inject: true });
      key = (await t.issueKey({ account: "acme" })).key;
    });
    after(() => t?.stop());

    describe("create()", () => {
      it("answers 201 pending_dispatch with a masked contractor, cost, ETA, Location, status URL and seal", async () => {
        const response = await postOrder(t, { "x-api-key": key }, { ...orderRequest, reference_id: "c-201" });
        const body = await response.json();
        assert.equal(response.status, 201);
        assert.deepEqual(
          [body.created, body.accepted, body.fulfilled, body.order.status],
          [true, true, true, "pending_dispatch"],
        );
        assert.match(body.order.id, /^ord_/);
        assert.match(body.order.assigned_contractor_ref, /^ctr_\*\*\*\*[0-9a-f]{4}$/);
        assert.ok(body.order.quoted_cost_cents > 0 && body.order.estimated_response_minutes > 0);
        assert.equal(body.order.quoted_cost_usd, (body.order.quoted_cost_cents / 100).toFixed(2));
        assert.equal(body.tracking.status_url, `${t.url}/api/dispatch/v1/orders/${body.order.id}`);
        assert.equal(response.headers.get("location"), body.tracking.status_url);
        assert.match(body.tracking.auth, /x-api-key/);
        assert.equal(body.fulfilment, undefined);
        const row = (await t.app.services.db("orders").where({ id: body.order.id }).first())!;
        assert.ok(Number.isInteger(row.dispatch_latency_ms) && row.dispatch_latency_ms! >= 0);
        // The batch goes to Postgres as json: the location must land as a jsonb object, not as JSON text.
        const stored = await t.app.services.db.raw("select jsonb_typeof(location) as kind from orders where id = ?", [
          body.order.id,
        ]);
        assert.equal(stored.rows[0].kind, "object");
        assert.deepEqual(row.location, { ...orderRequest.location, state: orderRequest.location.state.toUpperCase() });
        const audit = await t.app.services.db("audit_records").where({ subject: body.order.id }).orderBy("position");
        assert.deepEqual(
          audit.map((r: { type: string }) => r.type),
          ["order", "match", "offer"], // the job is offered to the matched contractor in the same statement
        );
        assert.equal(audit[0].seal, body.seal);
        const events = await t.app.services.db("order_events").where({ order_id: body.order.id }).orderBy("id");
        assert.deepEqual(
          events.map((e) => [e.type, e.data]),
          [
            ["order.created", null],
            [
              "order.assigned",
              {
                reassigned: false,
                eta: assignmentEta(body.order, body.order.created_at),
                arrival_window: body.order.arrival_window,
              },
            ],
          ],
        );
      });

      it("answers 202 accepted_pending_fulfilment with an escalation when no contractor covers AK", async () => {
        const response = await postOrder(
          t,
          { "x-api-key": key },
          {
            trade: "hvac",
            location: { state: "AK", city: "Fairbanks" },
            urgency: "emergency",
            description: "Furnace out.",
          },
        );
        const body = await response.json();
        assert.equal(response.status, 202);
        assert.deepEqual(
          [body.fulfilled, body.order.status, body.order.assigned_contractor_ref, body.order.quoted_cost_cents],
          [false, "accepted_pending_fulfilment", null, null],
        );
        assert.deepEqual(
          { ...body.fulfilment, detail: undefined },
          {
            assigned: false,
            reason: "no_contractor_in_area",
            detail: undefined,
            escalation_contact: "dispatch-escalations@dispatch.example",
          },
        );
        assert.match(body.fulfilment.detail, /hvac.*AK/);
        assert.equal(response.headers.get("location"), body.tracking.status_url);
        const row = (await t.app.services.db("orders").where({ id: body.order.id }).first())!;
        assert.equal(row.dispatch_latency_ms, null);
      });

      it("defaults urgency to routine", async () => {
        const { urgency: _omitted, ...rest } = orderRequest;
        const body = await (await postOrder(t, { "x-api-key": key }, { ...rest, reference_id: "c-routine" })).json();
        assert.equal(body.order.urgency, "routine");
      });

      it("answers 401 with no key (WWW-Authenticate), an invalid key, a revoked key and an API key as Bearer", async () => {
        const none = await postOrder(t, {}, orderRequest);
        assert.equal(none.status, 401);
        assert.ok(none.headers.get("www-authenticate"));
        assert.equal((await postOrder(t, { "x-api-key": "dispatch_test_not_a_real_key" }, orderRequest)).status, 401);
        const revoked = await t.issueKey({ account: "acme" });
        await t.fetch(`${t.url}/api/admin/v1/keys/${revoked.id}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${adminToken}` },
        });
        assert.equal((await postOrder(t, { "x-api-key": revoked.key }, orderRequest)).status, 401);
        assert.equal((await postOrder(t, { authorization: `Bearer ${key}` }, orderRequest)).status, 401);
      });

      it("answers 402 with the entitlement body to an OAuth token (Bearer or x-api-key) and to a quote-only key", async () => {
        const token = await oauthToken(t);
        for (const headers of [{ authorization: `Bearer ${token}` }, { "x-api-key": token }] as Record<
          string,
          string
        >[]) {
          const response = await postOrder(t, headers, orderRequest);
          assert.equal(response.status, 402);
          assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
          assert.deepEqual(await response.json(), entitlementBody);
        }
        const quoteOnly = await t.issueKey({ account: "acme", scopes: ["quote"] });
        const response = await postOrder(t, { "x-api-key": quoteOnly.key }, orderRequest);
        const body = await response.json();
        assert.equal(response.status, 402);
        assert.deepEqual(Object.keys(body).sort(), Object.keys(entitlementBody).sort());
        assert.equal(body.error, "payment_required");
      });

      const invalid: [string, Record<string, unknown>][] = [
        ["/description", { description: "" }],
        ["/description", { description: "x".repeat(5001) }],
        ["/reference_id", { reference_id: "r".repeat(256) }],
        ["/callback_url", { callback_url: "ftp://hooks.example.com/x" }],
        ["/callback_url", { callback_url: "not a url" }],
        ["/location/address", { location: { state: "TX", address: "a".repeat(1001) } }],
        ["/location/name", { location: { state: "TX", name: "n".repeat(501) } }],
        ["/location/state", { location: { state: "TEX" } }],
        ["/location/zip", { location: { state: "TX", zip: "12345678901" } }],
        ["/location/city", { location: { state: "TX", city: "c".repeat(256) } }],
        ["/nte_cents", { nte_cents: 0 }],
        ["/nte_cents", { nte_cents: 1.5 }],
        ["/urgency", { urgency: "whenever" }],
        ["/trade", { trade: "astrology" }],
      ];
      for (const [pointer, patch] of invalid) {
        it(`answers 422 pointing at ${pointer} for ${JSON.stringify(patch).slice(0, 60)}`, async () => {
          const response = await postOrder(t, { "x-api-key": key }, { ...orderRequest, ...patch });
          const body = await response.json();
          assert.equal(response.status, 422);
          assert.equal(response.headers.get("content-type"), "application/problem+json");
          assert.deepEqual([...new Set(body.errors.map((e: { pointer: string }) => e.pointer))], [pointer]);
        });
      }

      it("accepts the upper bounds exactly", async () => {
        const body = {
          ...orderRequest,
          description: "d".repeat(5000),
          reference_id: "r".repeat(255),
          nte_cents: 1,
          location: {
            state: "TX",
            zip: "78701-1234",
            city: "c".repeat(255),
            address: "a".repeat(1000),
            name: "n".repeat(500),
          },
        };
        // nte_cents: 1 is under any price, so the order is held for approval (the NTE rule), not refused
        assert.equal((await postOrder(t, { "x-api-key": key }, body)).status, 202);
      });

      it("allows a burst of 200 per key, then 429 with Retry-After and RateLimit headers", async () => {
        const { key: bursty } = await t.issueKey({ account: "bursty" });
        const statuses: number[] = [];
        for (let i = 0; i < 201; i++)
          statuses.push(
            (await postOrder(t, { "x-api-key": bursty }, { ...orderRequest, reference_id: "burst" })).status,
          );
        assert.equal(statuses.filter((s) => s === 201).length, 200);
        assert.equal(statuses[200], 429);
        const limited = await postOrder(t, { "x-api-key": bursty }, orderRequest);
        assert.equal(limited.status, 429);
        assert.ok(Number(limited.headers.get("retry-after")) >= 1);
        assert.match(limited.headers.get("ratelimit")!, /^"default";r=0;t=\d+$/);
        assert.equal(limited.headers.get("ratelimit-policy"), '"default";q=200;w=60');
      });
    });

    describe("idempotency", () => {
      it("replays the first answer for the same reference_id and body", async () => {
        const first = await postOrder(t, { "x-api-key": key }, { ...orderRequest, reference_id: "idem-1" });
        const second = await postOrder(t, { "x-api-key": key }, { ...orderRequest, reference_id: "idem-1" });
        assert.deepEqual([first.status, second.status], [201, 201]);
        assert.equal(await second.text(), await first.text());
        assert.equal(second.headers.get("location"), first.headers.get("location"));
        assert.equal((await t.app.services.db("orders").where({ reference_id: "idem-1" })).length, 1);
      });

      it("answers 409 idempotency_conflict for the same reference_id with another body", async () => {
        await postOrder(t, { "x-api-key": key }, { ...orderRequest, reference_id: "idem-2" });
        const response = await postOrder(
          t,
          { "x-api-key": key },
          { ...orderRequest, reference_id: "idem-2", nte_cents: 99 },
        );
        assert.equal(response.status, 409);
        assert.equal((await response.json()).code, "idempotency_conflict");
      });

      it("gives the Idempotency-Key header the same semantics, per account", async () => {
        const { reference_id: _none, ...body } = orderRequest;
        const headers = { "x-api-key": key, "idempotency-key": "key-1" };
        const first = await postOrder(t, headers, body);
        const firstText = await first.text();
        assert.equal(await (await postOrder(t, headers, body)).text(), firstText);
        assert.equal((await postOrder(t, headers, { ...body, description: "Another job." })).status, 409);
        const { key: otherKey } = await t.issueKey({ account: "globex" });
        const other = await (await postOrder(t, { "x-api-key": otherKey, "idempotency-key": "key-1" }, body)).json();
        assert.equal(other.order.status, "pending_dispatch");
        assert.notEqual(other.order.id, JSON.parse(firstText).order.id);
      });

      it("creates exactly one order for 50 concurrent identical retries, all answered identically", async () => {
        const { key: racer } = await t.issueKey({ account: "racer" });
        const answers = await Promise.all(
          Array.from({ length: 50 }, async () => {
            const response = await postOrder(t, { "x-api-key": racer }, { ...orderRequest, reference_id: "race-1" });
            return `${response.status} ${await response.text()}`;
          }),
        );
        assert.equal(
          new Set(answers).size,
          1,
          answers.find((a) => a !== answers[0]),
        );
        assert.match(answers[0], /^201 /);
        assert.equal((await t.app.services.db("orders").where({ account: "racer" })).length, 1);
      });
    });

    describe("get()", () => {
      it("returns the order with its history at the status URL, and 404 to another account", async () => {
        const created = await (
          await postOrder(t, { "x-api-key": key }, { ...orderRequest, reference_id: "get-1" })
        ).json();
        const response = await getOrder(created.tracking.status_url, key, t.fetch);
        const body = await response.json();
        assert.equal(response.status, 200);
        assert.equal(body.id, created.order.id);
        assert.equal(body.status, "pending_dispatch");
        assert.deepEqual(body.location, orderRequest.location);
        assert.equal(body.description, orderRequest.description);
        assert.deepEqual(
          body.events.map((e: { status: string }) => e.status),
          ["pending_dispatch"],
        );
        const { key: otherKey } = await t.issueKey({ account: "globex" });
        const foreign = await getOrder(created.tracking.status_url, otherKey, t.fetch);
        assert.equal(foreign.status, 404);
        assert.equal(foreign.headers.get("content-type"), "application/problem+json");
        assert.equal((await getOrder(`${t.url}/api/dispatch/v1/orders/ord_missing`, key, t.fetch)).status, 404);
        assert.equal((await t.fetch(created.tracking.status_url)).status, 401);
      });
    });
  });

  describe(`orders when dispatch is disabled (${db.name})`, function () {
    this.timeout(60_000);
    it("answers 503 with Retry-After", async () => {
      const t = await startTestServer(db, { DISPATCH_DISABLED: "true" }, { inject: true });
      try {
        const { key } = await t.issueKey();
        const response = await postOrder(t, { "x-api-key": key }, orderRequest);
        assert.equal(response.status, 503);
        assert.equal((await response.json()).code, "dispatch_unavailable");
        assert.ok(response.headers.get("retry-after"));
      } finally {
        await t.stop();
      }
    });
  });
}
