// The account's webhook operations pass `prism proxy openapi.yaml <server> --errors` without contract violations.
import assert from "node:assert/strict";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import { createDispatchClient, type DispatchClient } from "../../sdk/index.js";
import { orderRequest } from "../fixtures/requests.js";
import { assertConforms } from "../helpers/prism-conformance.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

for (const db of databases()) {
  describe(`webhooks through the Prism validating proxy (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let prism: PrismHandle;
    let keyed: DispatchClient;
    let anonymous: DispatchClient;

    before(async () => {
      t = await startTestServer(db, { WEBHOOK_ALLOW_PRIVATE: "true" });
      prism = await startPrism({ mode: "proxy", upstream: t.url });
      const apiKey = (await t.issueKey({ account: "proxy-hooks" })).key;
      keyed = createDispatchClient({ baseUrl: prism.url, apiKey, retry: false });
      anonymous = createDispatchClient({ baseUrl: prism.url, retry: false });
    });
    after(async () => {
      await prism?.stop();
      await t?.stop();
    });

    it("rotateWebhookSecret: 200 (first secret), 200 (rotated), 401; getAccountWebhookSecret: 200", async () => {
      const first = await keyed.POST("/api/dispatch/v1/webhooks/secret/rotate");
      assertConforms(first, 200);
      assert.equal(first.data!.previous_expires_at, null);
      const rotated = await keyed.POST("/api/dispatch/v1/webhooks/secret/rotate");
      assertConforms(rotated, 200);
      assert.ok(rotated.data!.previous_expires_at);
      const current = await keyed.GET("/api/dispatch/v1/webhooks/secret");
      assertConforms(current, 200);
      assert.equal(current.data!.secret, rotated.data!.secret);
      assertConforms(await anonymous.POST("/api/dispatch/v1/webhooks/secret/rotate"), 401);
    });

    it("listWebhookDeliveries: 200 with a Link header, 422, 401; redeliverWebhookDelivery: 202, 404, 422", async () => {
      for (const reference_id of ["hooks-1", "hooks-2"]) {
        const body = { ...orderRequest, reference_id, callback_url: "http://127.0.0.1:9/hooks" }; // refused
        await keyed.POST("/api/dispatch/v1/order", { body });
      }
      const page = await keyed.GET("/api/dispatch/v1/webhooks/deliveries", { params: { query: { limit: 1 } } });
      assertConforms(page, 200);
      assert.match(page.response.headers.get("link") ?? "", /rel="next"$/);
      const [delivery] = page.data!.items;
      const filtered = await keyed.GET("/api/dispatch/v1/webhooks/deliveries", {
        params: { query: { order_id: delivery.order_id, state: "pending", cursor: page.data!.next_cursor! } },
      });
      assertConforms(filtered, 200);
      const query = { cursor: "bm9wZQ" };
      assertConforms(await keyed.GET("/api/dispatch/v1/webhooks/deliveries", { params: { query } }), 422);
      assertConforms(await anonymous.GET("/api/dispatch/v1/webhooks/deliveries"), 401);
      const path = (id: string) => ({ params: { path: { id } } });
      const queued = await keyed.POST("/api/dispatch/v1/webhooks/deliveries/{id}/redeliver", path(delivery.id));
      assertConforms(queued, 202);
      assert.equal(queued.data!.state, "pending");
      assertConforms(await keyed.POST("/api/dispatch/v1/webhooks/deliveries/{id}/redeliver", path("dlv_0")), 404);
      assertConforms(await keyed.POST("/api/dispatch/v1/webhooks/deliveries/{id}/redeliver", path("nope")), 422);
    });
  });
}
