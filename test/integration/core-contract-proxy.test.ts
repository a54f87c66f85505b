// The server core's answers pass through `prism proxy openapi.yaml <server> --errors` without violations.
import { assertConforms } from "../helpers/prism-conformance.js";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import { createDispatchClient, type DispatchClient } from "../../sdk/index.js";
import { contractorInput, estimateRequest, quoteRequest } from "../fixtures/requests.js";
import { adminToken, startTestServer, type TestServer } from "../helpers/server.js";

describe("server core through the Prism validating proxy", function () {
  this.timeout(120_000);
  let t: TestServer;
  let prism: PrismHandle;
  let anon: DispatchClient;
  let keyed: DispatchClient;
  let admin: DispatchClient;

  before(async () => {
    t = await startTestServer();
    prism = await startPrism({ mode: "proxy", upstream: t.url });
    const { key } = await t.issueKey();
    anon = createDispatchClient({ baseUrl: prism.url, retry: false });
    keyed = createDispatchClient({ baseUrl: prism.url, apiKey: key, retry: false });
    admin = createDispatchClient({ baseUrl: prism.url, adminToken, retry: false });
  });
  after(async () => {
    await prism?.stop();
    await t?.stop();
  });

  it("public reads", async () => {
    assertConforms(await anon.GET("/healthz"), 200);
    assertConforms(await anon.GET("/readyz"), 200);
    assertConforms(await anon.GET("/openapi.json"), 200);
    assertConforms(await anon.GET("/openapi.yaml", { parseAs: "text" }), 200);
    assertConforms(await anon.GET("/api/capabilities"), 200);
    assertConforms(await anon.GET("/api/dispatch/index"), 200);
    for (const period of ["rolling_7d", "rolling_30d", "rolling_90d"] as const)
      assertConforms(await anon.GET("/api/dispatch/analytics/evals", { params: { query: { period } } }), 200);
  });

  it("estimate for every trade and urgency", async () => {
    for (const trade of [
      "plumbing",
      "electrical",
      "hvac",
      "carpentry",
      "roofing",
      "painting",
      "locksmith",
      "appliance_repair",
    ] as const) {
      for (const urgency of ["emergency", "urgent", "routine", "scheduled"] as const) {
        assertConforms(
          await anon.POST("/api/dispatch/v1/estimate", { body: { ...estimateRequest, trade, urgency } }),
          200,
        );
      }
    }
  });

  it("quote: available, unavailable (AK), and 401", async () => {
    assertConforms(await keyed.POST("/api/dispatch/v1/quote", { body: quoteRequest }), 200);
    assertConforms(
      await keyed.POST("/api/dispatch/v1/quote", {
        body: { trade: "roofing", location: { state: "AK" }, urgency: "emergency", nte_cents: 5000 },
      }),
      200,
    );
    assertConforms(
      await keyed.POST("/api/dispatch/v1/quote", {
        body: { trade: "painting", location: { state: "NY", city: "Buffalo" }, urgency: "scheduled" },
      }),
      200,
    );
    const bad = createDispatchClient({ baseUrl: prism.url, apiKey: "dispatch_test_wrong", retry: false });
    assertConforms(await bad.POST("/api/dispatch/v1/quote", { body: quoteRequest }), 401);
  });

  it("OAuth register and token", async () => {
    const reg = await anon.POST("/api/mcp/oauth/register", { body: { client_name: "proxy-test" } });
    assertConforms(reg, 201);
    const form = (b: Record<string, string>) => new URLSearchParams(b).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const ok = await anon.POST("/api/mcp/oauth/token", {
      body: {
        grant_type: "client_credentials",
        client_id: reg.data!.client_id,
        client_secret: reg.data!.client_secret,
      },
      bodySerializer: form,
      headers,
    });
    assertConforms(ok, 200);
    const wrong = await anon.POST("/api/mcp/oauth/token", {
      body: { grant_type: "client_credentials", client_id: reg.data!.client_id, client_secret: "nope" },
      bodySerializer: form,
      headers,
    });
    assertConforms(wrong, 401);
    const grant = await anon.POST("/api/mcp/oauth/token", {
      body: { grant_type: "password", client_id: reg.data!.client_id, client_secret: reg.data!.client_secret },
      bodySerializer: form,
      headers,
    });
    assertConforms(grant, 400);
  });

  it("admin keys and contractors", async () => {
    const created = await admin.POST("/api/admin/v1/keys", {
      body: { account: "proxy-acct", environment: "live", label: "proxy" },
    });
    assertConforms(created, 201);
    assertConforms(
      await admin.GET("/api/admin/v1/keys", { params: { query: { account: "proxy-acct", limit: 1 } } }),
      200,
    );
    assertConforms(await admin.DELETE("/api/admin/v1/keys/{id}", { params: { path: { id: created.data!.id } } }), 200);
    assertConforms(await admin.DELETE("/api/admin/v1/keys/{id}", { params: { path: { id: "key_missing" } } }), 404);
    const contractor = await admin.POST("/api/admin/v1/contractors", { body: contractorInput });
    assertConforms(contractor, 201);
    assertConforms(
      await admin.GET("/api/admin/v1/contractors", { params: { query: { trade: "plumbing", state: "TX", limit: 5 } } }),
      200,
    );
    assertConforms(
      await admin.PATCH("/api/admin/v1/contractors/{id}", {
        params: { path: { id: contractor.data!.id } },
        body: { active: false },
      }),
      200,
    );
    assertConforms(
      await admin.PATCH("/api/admin/v1/contractors/{id}", {
        params: { path: { id: "ctr_missing" } },
        body: { active: false },
      }),
      404,
    );
    assertConforms(await anon.GET("/api/admin/v1/keys"), 401);
  });
});
