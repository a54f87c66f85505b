// Order answers pass through `prism proxy openapi.yaml <server> --errors` without contract violations.
import assert from "node:assert/strict";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import { createDispatchClient, type DispatchClient } from "../../sdk/index.js";
import { orderRequest, quoteRequest } from "../fixtures/requests.js";
import { oauthToken } from "../fixtures/orders.js";
import { assertConforms } from "../helpers/prism-conformance.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { now } from "../../server/services/shared/clock.js";

for (const db of databases()) {
  describe(`orders through the Prism validating proxy (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let prism: PrismHandle;
    let keyed: DispatchClient;
    let admin: DispatchClient;

    before(async () => {
      t = await startTestServer(db, { WEBHOOK_ALLOW_PRIVATE: "true" });
      prism = await startPrism({ mode: "proxy", upstream: t.url });
      keyed = createDispatchClient({
        baseUrl: prism.url,
        apiKey: (await t.issueKey({ account: "proxy" })).key,
        retry: false,
      });
      admin = createDispatchClient({ baseUrl: prism.url, adminToken, retry: false });
    });
    after(async () => {
      await prism?.stop();
      await t?.stop();
    });

    it("createOrder: 201, replay, 409, Idempotency-Key, 202, 402 and 401", async () => {
      const body = { ...orderRequest, callback_url: "http://127.0.0.1:9/hooks", reference_id: "proxy-1" };
      const created = await keyed.POST("/api/dispatch/v1/order", { body });
      assertConforms(created, 201);
      assertConforms(await keyed.POST("/api/dispatch/v1/order", { body }), 201);
      assertConforms(await keyed.POST("/api/dispatch/v1/order", { body: { ...body, nte_cents: 5 } }), 409);
      const { reference_id: _r, ...unreferenced } = body;
      assertConforms(
        await keyed.POST("/api/dispatch/v1/order", {
          body: unreferenced,
          params: { header: { "Idempotency-Key": "proxy-key" } },
        }),
        201,
      );
      assertConforms(
        await keyed.POST("/api/dispatch/v1/order", {
          body: {
            trade: "roofing",
            location: { state: "AK", city: "Nome" },
            urgency: "emergency",
            description: "Roof torn off.",
          },
        }),
        202,
      );
      const token = createDispatchClient({ baseUrl: prism.url, accessToken: await oauthToken(t.url), retry: false });
      assertConforms(await token.POST("/api/dispatch/v1/order", { body: orderRequest }), 402);
      assertConforms(
        await createDispatchClient({ baseUrl: prism.url, apiKey: "dispatch_test_wrong", retry: false }).POST(
          "/api/dispatch/v1/order",
          { body: orderRequest },
        ),
        401,
      );
    });

    it("createOrder with a quote_id: 201 (quote_id shown), 404, 422 quote_mismatch, 409 quote_expired", async () => {
      const { quote_id } = (await keyed.POST("/api/dispatch/v1/quote", { body: quoteRequest })).data!;
      const body = { ...orderRequest, quote_id, reference_id: "proxy-quote" };
      const created = await keyed.POST("/api/dispatch/v1/order", { body });
      assertConforms(created, 201);
      assert.equal(created.data!.order.quote_id, quote_id);
      assertConforms(
        await keyed.GET("/api/dispatch/v1/orders/{id}", { params: { path: { id: created.data!.order.id } } }),
        200,
      );
      const unknown = { ...body, quote_id: "qt_01JD8X7K2M4Q9R3T5V7W9Y1A2B", reference_id: "proxy-quote-404" };
      assertConforms(await keyed.POST("/api/dispatch/v1/order", { body: unknown }), 404);
      const elsewhere = { ...body, location: { state: "CA" as const }, reference_id: "proxy-quote-422" };
      const mismatch = await keyed.POST("/api/dispatch/v1/order", { body: elsewhere });
      assertConforms(mismatch, 422);
      assert.equal((mismatch.error as { code: string }).code, "quote_mismatch");
      await t.app.services
        .db("quotes")
        .where({ id: quote_id })
        .update({ expires_at: new Date(now() - 1000) });
      const late = await keyed.POST("/api/dispatch/v1/order", { body: { ...body, reference_id: "proxy-quote-409" } });
      assertConforms(late, 409);
      assert.equal((late.error as { code: string }).code, "quote_expired");
    });

    it("getOrder and recordOrderEvent: 200, 201, 409, 422, 404", async () => {
      const created = await keyed.POST("/api/dispatch/v1/order", {
        body: { ...orderRequest, reference_id: "proxy-2" },
      });
      const id = created.data!.order.id;
      const path = { params: { path: { id } } };
      assertConforms(await keyed.GET("/api/dispatch/v1/orders/{id}", path), 200);
      assertConforms(await keyed.GET("/api/dispatch/v1/orders/{id}", { params: { path: { id: "ord_missing" } } }), 404);
      assertConforms(
        await admin.POST("/api/admin/v1/orders/{id}/events", {
          ...path,
          body: { status: "dispatched", note: "on the way", human_override: false },
        }),
        201,
      );
      assertConforms(
        await admin.POST("/api/admin/v1/orders/{id}/events", {
          ...path,
          body: { status: "completed", final_cost_cents: 100 },
        }),
        409,
      );
      for (const status of ["en_route", "on_site"] as const)
        assertConforms(await admin.POST("/api/admin/v1/orders/{id}/events", { ...path, body: { status } }), 201);
      assertConforms(
        await admin.POST("/api/admin/v1/orders/{id}/events", { ...path, body: { status: "completed" } }),
        422,
      );
      assertConforms(
        await admin.POST("/api/admin/v1/orders/{id}/events", {
          ...path,
          body: { status: "completed", final_cost_cents: 41250 },
        }),
        201,
      );
      assertConforms(
        await admin.POST("/api/admin/v1/orders/{id}/events", {
          params: { path: { id: "ord_missing" } },
          body: { status: "cancelled" },
        }),
        404,
      );
      assertConforms(await keyed.GET("/api/dispatch/v1/orders/{id}", path), 200);
    });

    it("getWebhookSecret: 200 and 401", async () => {
      const secret = await admin.GET("/api/admin/v1/accounts/{account}/webhook-secret", {
        params: { path: { account: "proxy" } },
      });
      assertConforms(secret, 200);
      assert.match(secret.data!.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      assertConforms(
        await keyed.GET("/api/admin/v1/accounts/{account}/webhook-secret", { params: { path: { account: "proxy" } } }),
        401,
      );
    });
  });
}
