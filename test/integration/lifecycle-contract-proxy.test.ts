// listOrders, cancelOrder and advanceSandboxOrder answers pass `prism proxy openapi.yaml <server> --errors` cleanly.
import assert from "node:assert/strict";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import { createDispatchClient, type DispatchClient } from "../../sdk/index.js";
import { orderRequest } from "../fixtures/requests.js";
import { assertConforms } from "../helpers/prism-conformance.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

for (const db of databases()) {
  describe(`customer lifecycle through the Prism validating proxy (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let prism: PrismHandle;
    let keyed: DispatchClient;
    let live: DispatchClient;
    const order = async (client: DispatchClient, reference_id: string) =>
      (await client.POST("/api/dispatch/v1/order", { body: { ...orderRequest, reference_id } })).data!.order.id;

    before(async () => {
      t = await startTestServer(db);
      prism = await startPrism({ mode: "proxy", upstream: t.url });
      const client = async (environment: "test" | "live") =>
        createDispatchClient({
          baseUrl: prism.url,
          apiKey: (await t.issueKey({ account: "proxy", environment })).key,
          retry: false,
        });
      keyed = await client("test");
      live = await client("live");
    });
    after(async () => {
      await prism?.stop();
      await t?.stop();
    });

    it("listOrders: 200 with a Link header, 422", async () => {
      for (const ref of ["l-1", "l-2"]) await order(keyed, ref);
      const page = await keyed.GET("/api/dispatch/v1/orders", { params: { query: { limit: 1 } } });
      assertConforms(page, 200);
      assert.match(page.response.headers.get("link") ?? "", /rel="next"$/);
      const filtered = await keyed.GET("/api/dispatch/v1/orders", {
        params: { query: { status: ["pending_dispatch", "cancelled"], trade: "plumbing" } },
      });
      assertConforms(filtered, 200);
      assertConforms(await keyed.GET("/api/dispatch/v1/orders", { params: { query: { cursor: "bm9wZQ" } } }), 422);
    });

    it("cancelOrder: 200, 200 again, 409, 404, 422", async () => {
      const id = await order(keyed, "c-1");
      const path = { params: { path: { id } } };
      const body = { reason: "customer_request", note: "Fixed it myself." } as const;
      assertConforms(await keyed.POST("/api/dispatch/v1/orders/{id}/cancel", { ...path, body }), 200);
      assertConforms(await keyed.POST("/api/dispatch/v1/orders/{id}/cancel", { ...path, body }), 200);
      const late = await order(keyed, "c-2");
      await keyed.POST("/api/dispatch/v1/sandbox/orders/{id}/advance", {
        params: { path: { id: late } },
        body: { to: "on_site" },
      });
      assertConforms(
        await keyed.POST("/api/dispatch/v1/orders/{id}/cancel", { params: { path: { id: late } }, body }),
        409,
      );
      assertConforms(
        await keyed.POST("/api/dispatch/v1/orders/{id}/cancel", { params: { path: { id: "ord_missing" } }, body }),
        404,
      );
      assertConforms(await keyed.POST("/api/dispatch/v1/orders/{id}/cancel", { ...path, body: {} as never }), 422);
    });

    it("advanceSandboxOrder: 200, 409, 403, 404", async () => {
      const id = await order(keyed, "s-1");
      const path = { params: { path: { id } } };
      assertConforms(await keyed.POST("/api/dispatch/v1/sandbox/orders/{id}/advance", path), 200);
      assertConforms(
        await keyed.POST("/api/dispatch/v1/sandbox/orders/{id}/advance", { ...path, body: { to: "completed" } }),
        200,
      );
      assertConforms(await keyed.POST("/api/dispatch/v1/sandbox/orders/{id}/advance", path), 409);
      const liveId = await order(live, "s-live");
      assertConforms(
        await live.POST("/api/dispatch/v1/sandbox/orders/{id}/advance", { params: { path: { id: liveId } } }),
        403,
      );
      assertConforms(
        await keyed.POST("/api/dispatch/v1/sandbox/orders/{id}/advance", { params: { path: { id: "ord_missing" } } }),
        404,
      );
    });
  });
}
