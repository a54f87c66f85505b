// One typed SDK call per operation of the contract; the contract suites drive every one of them.
import type { DispatchClient } from "../../sdk/index.js";
import type { operations } from "../../sdk/generated/openapi.js";
import { contractorInput, estimateRequest, orderRequest, quoteRequest, seal } from "../fixtures/requests.js";

export interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}
type Call = (client: DispatchClient, headers: Record<string, string>) => Promise<CallResult>;

const formBody = (body: Record<string, string>) => new URLSearchParams(body).toString();

export const operationCalls = {
  probeStorefront: (c, headers) =>
    c.POST("/api/agentic-commerce/probe", { body: { url: "https://shop.example.com" }, headers }),
  createQuote: (c, headers) => c.POST("/api/dispatch/v1/quote", { body: quoteRequest, headers }),
  createEstimate: (c, headers) => c.POST("/api/dispatch/v1/estimate", { body: estimateRequest, headers }),
  createOrder: (c, headers) => c.POST("/api/dispatch/v1/order", { body: orderRequest, headers }),
  getOrder: (c, headers) =>
    c.GET("/api/dispatch/v1/orders/{id}", { params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" } }, headers }),
  listOrders: (c, headers) =>
    c.GET("/api/dispatch/v1/orders", { params: { query: { status: ["pending_dispatch"], limit: 10 } }, headers }),
  listEvents: (c, headers) => c.GET("/api/dispatch/v1/events", { params: { query: { limit: 10 } }, headers }),
  listOrderEvents: (c, headers) =>
    c.GET("/api/dispatch/v1/orders/{id}/events", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      headers,
    }),
  getAccountWebhookSecret: (c, headers) => c.GET("/api/dispatch/v1/webhooks/secret", { headers }),
  rotateWebhookSecret: (c, headers) => c.POST("/api/dispatch/v1/webhooks/secret/rotate", { headers }),
  listWebhookDeliveries: (c, headers) =>
    c.GET("/api/dispatch/v1/webhooks/deliveries", {
      params: { query: { order_id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1", state: "dead", limit: 10 } },
      headers,
    }),
  redeliverWebhookDelivery: (c, headers) =>
    c.POST("/api/dispatch/v1/webhooks/deliveries/{id}/redeliver", { params: { path: { id: "dlv_1207" } }, headers }),
  cancelOrder: (c, headers) =>
    c.POST("/api/dispatch/v1/orders/{id}/cancel", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      body: { reason: "duplicate" },
      headers,
    }),
  rescheduleOrder: (c, headers) =>
    c.POST("/api/dispatch/v1/orders/{id}/reschedule", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      body: { arrival_window: { start: "2026-11-24T10:00:00-06:00", end: "2026-11-24T12:00:00-06:00" } },
      headers,
    }),
  approvePriceRevision: (c, headers) =>
    c.POST("/api/dispatch/v1/orders/{id}/price-revisions/{revision_id}/approve", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1", revision_id: "prv_01JD8XC0A2B4C6D8E0F2G4H6J8" } },
      headers,
    }),
  declinePriceRevision: (c, headers) =>
    c.POST("/api/dispatch/v1/orders/{id}/price-revisions/{revision_id}/decline", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1", revision_id: "prv_01JD8XC0A2B4C6D8E0F2G4H6J8" } },
      headers,
    }),
  advanceSandboxOrder: (c, headers) =>
    c.POST("/api/dispatch/v1/sandbox/orders/{id}/advance", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      body: { to: "dispatched" },
      headers,
    }),
  resetSandbox: (c, headers) => c.POST("/api/dispatch/v1/sandbox/reset", { headers }),
  getSandboxClock: (c, headers) => c.GET("/api/dispatch/v1/sandbox/clock", { headers }),
  advanceSandboxClock: (c, headers) =>
    c.POST("/api/dispatch/v1/sandbox/clock/advance", { body: { by: "2h" }, headers }),
  getEvals: (c, headers) =>
    c.GET("/api/dispatch/analytics/evals", { params: { query: { period: "rolling_30d" } }, headers }),
  getTradeIndex: (c, headers) => c.GET("/api/dispatch/index", { headers }),
  callMcp: (c, headers) =>
    c.POST("/api/mcp", {
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      headers: { accept: "application/json, text/event-stream, application/problem+json", ...headers },
    }),
  registerOAuthClient: (c, headers) =>
    c.POST("/api/mcp/oauth/register", {
      body: { client_name: "contract-test", grant_types: ["client_credentials"] },
      headers,
    }),
  createOAuthToken: (c, headers) =>
    c.POST("/api/mcp/oauth/token", {
      body: { grant_type: "client_credentials", client_id: "dcl_test", client_secret: "dcs_test" },
      bodySerializer: formBody,
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    }),
  callA2a: (c, headers) =>
    c.POST("/api/a2a", {
      body: {
        jsonrpc: "2.0",
        id: 7,
        method: "SendMessage",
        params: {
          message: { messageId: "m1", role: "ROLE_USER", parts: [{ data: { skill: "dispatch.index", input: {} } }] },
        },
      },
      headers,
    }),
  verifySeal: (c, headers) => c.GET("/api/attest/verify/{seal}", { params: { path: { seal } }, headers }),
  getCheckpoint: (c, headers) => c.GET("/api/attest/checkpoint", { headers, parseAs: "text" }),
  getLogKey: (c, headers) => c.GET("/api/attest/key", { headers, parseAs: "text" }),
  getConsistencyProof: (c, headers) =>
    c.GET("/api/attest/consistency", { params: { query: { first: 4, second: 6 } }, headers }),
  listAuditRecords: (c, headers) => c.GET("/api/audit/v1/records", { params: { query: { limit: 10 } }, headers }),
  getAgentCard: (c, headers) => c.GET("/.well-known/agent-card.json", { headers }),
  getProtectedResourceMetadata: (c, headers) => c.GET("/.well-known/oauth-protected-resource", { headers }),
  getMcpProtectedResourceMetadata: (c, headers) => c.GET("/.well-known/oauth-protected-resource/api/mcp", { headers }),
  openMcpStream: (c, headers) => c.GET("/api/mcp", { headers }),
  deleteMcpSession: (c, headers) => c.DELETE("/api/mcp", { headers }),
  getAuthorizationServerMetadata: (c, headers) => c.GET("/.well-known/oauth-authorization-server", { headers }),
  getCapabilityIndex: (c, headers) => c.GET("/api/capabilities", { headers }),
  getOpenApiJson: (c, headers) => c.GET("/openapi.json", { headers }),
  getOpenApiYaml: (c, headers) => c.GET("/openapi.yaml", { headers, parseAs: "text" }),
  getHome: (c, headers) => c.GET("/", { headers }),
  getDocs: (c, headers) => c.GET("/docs", { headers, parseAs: "text" }),
  getDocsBundle: (c, headers) => c.GET("/docs/redoc.standalone.js", { headers, parseAs: "text" }),
  getHealth: (c, headers) => c.GET("/healthz", { headers }),
  getReadiness: (c, headers) => c.GET("/readyz", { headers }),
  getMetrics: (c, headers) => c.GET("/api/admin/v1/metrics", { headers, parseAs: "text" }),
  createApiKey: (c, headers) =>
    c.POST("/api/admin/v1/keys", { body: { account: "acme-facilities", environment: "live" }, headers }),
  listApiKeys: (c, headers) =>
    c.GET("/api/admin/v1/keys", { params: { query: { account: "acme-facilities" } }, headers }),
  revokeApiKey: (c, headers) =>
    c.DELETE("/api/admin/v1/keys/{id}", { params: { path: { id: "key_01JD8XD5E7F9G1H3J5K7M9N1P3" } }, headers }),
  listContractors: (c, headers) =>
    c.GET("/api/admin/v1/contractors", { params: { query: { trade: "plumbing" } }, headers }),
  createContractor: (c, headers) => c.POST("/api/admin/v1/contractors", { body: contractorInput, headers }),
  updateContractor: (c, headers) =>
    c.PATCH("/api/admin/v1/contractors/{id}", {
      params: { path: { id: "ctr_01JD8XE6F8G0H2J4K6M8N0P2Q4" } },
      body: { active: false },
      headers,
    }),
  createContractorKey: (c, headers) =>
    c.POST("/api/admin/v1/contractors/{id}/keys", {
      params: { path: { id: "ctr_01JD8XE6F8G0H2J4K6M8N0P2Q4" } },
      body: { environment: "live" },
      headers,
    }),
  listContractorEvents: (c, headers) =>
    c.GET("/api/dispatch/v1/contractor/events", { params: { query: { limit: 10 } }, headers }),
  listContractorOffers: (c, headers) =>
    c.GET("/api/dispatch/v1/contractor/offers", { params: { query: { status: "offered" } }, headers }),
  acceptOffer: (c, headers) =>
    c.POST("/api/dispatch/v1/contractor/offers/{id}/accept", {
      params: { path: { id: "ofr_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      headers,
    }),
  declineOffer: (c, headers) =>
    c.POST("/api/dispatch/v1/contractor/offers/{id}/decline", {
      params: { path: { id: "ofr_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      body: { reason: "no_capacity" },
      headers,
    }),
  listContractorJobs: (c, headers) =>
    c.GET("/api/dispatch/v1/contractor/jobs", { params: { query: { limit: 20 } }, headers }),
  updateJobStatus: (c, headers) =>
    c.POST("/api/dispatch/v1/contractor/jobs/{id}/status", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      body: { status: "on_site" },
      headers,
    }),
  rescheduleJob: (c, headers) =>
    c.POST("/api/dispatch/v1/contractor/jobs/{id}/reschedule", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      body: { arrival_window: { start: "2026-11-24T10:00:00-06:00", end: "2026-11-24T12:00:00-06:00" } },
      headers,
    }),
  listJobWindows: (c, headers) =>
    c.GET("/api/dispatch/v1/contractor/jobs/{id}/windows", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      headers,
    }),
  requestPriceRevision: (c, headers) =>
    c.POST("/api/dispatch/v1/contractor/jobs/{id}/price-revisions", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      body: { amount_cents: 52000, reason: "The shut-off valve is corroded." },
      headers,
    }),
  recordOrderEvent: (c, headers) =>
    c.POST("/api/admin/v1/orders/{id}/events", {
      params: { path: { id: "ord_01JD8XB3C5D7E9F1G3H5J7K9M1" } },
      body: { status: "completed", final_cost_cents: 41250 },
      headers,
    }),
  getWebhookSecret: (c, headers) =>
    c.GET("/api/admin/v1/accounts/{account}/webhook-secret", {
      params: { path: { account: "acme-facilities" } },
      headers,
    }),
} satisfies Record<keyof operations, Call>;
