// unwrap() and createApiError(): every non-2xx becomes one DispatchApiError with status, type, code and request id.
import assert from "node:assert/strict";
import { createDispatchClient, DispatchApiError, unwrap } from "../../../sdk/index.js";

function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetch = async () =>
    new Response(body === null ? null : JSON.stringify(body), {
      status,
      headers: { "content-type": "application/problem+json", ...headers },
    });
  return createDispatchClient({ baseUrl: "http://x.test", fetch: fetch, retry: false });
}

const problem = {
  type: "https://dispatch.example/problems/unauthorized",
  title: "Unauthorized",
  status: 401,
  detail: "Missing or invalid x-api-key.",
  code: "unauthorized",
  request_id: "req_123",
};

describe("sdk errors", () => {
  describe("unwrap()", () => {
    it("returns data on 2xx", async () => {
      const fetch = async () => Response.json({ trades: [] });
      const client = createDispatchClient({ baseUrl: "http://x.test", fetch: fetch });
      assert.deepEqual(unwrap(await client.GET("/api/dispatch/index")), { trades: [] });
    });

    it("throws DispatchApiError with status, type, code and requestId of a problem", async () => {
      const client = answering(401, problem);
      const result = await client.POST("/api/dispatch/v1/quote", {
        body: { trade: "hvac", location: { state: "CA" } },
      });
      assert.throws(
        () => unwrap(result),
        (err: unknown) => {
          assert.ok(err instanceof DispatchApiError);
          assert.deepEqual(
            [err.status, err.type, err.code, err.requestId],
            [401, problem.type, "unauthorized", "req_123"],
          );
          assert.equal(err.message, "401 Unauthorized: Missing or invalid x-api-key.");
          assert.deepEqual(err.body, problem);
          return true;
        },
      );
    });

    it("takes the request id from x-request-id when the body has none", async () => {
      const client = answering(
        404,
        { type: "about:blank", title: "Not Found", status: 404 },
        { "x-request-id": "req_hdr" },
      );
      const result = await client.GET("/api/dispatch/v1/orders/{id}", { params: { path: { id: "ord_x" } } });
      assert.throws(() => unwrap(result), { name: "DispatchApiError", status: 404, requestId: "req_hdr", code: null });
    });

    it("uses the `error` code of a 402 entitlement body as type and code", async () => {
      const client = answering(402, { error: "order_not_entitled", message: "This key may quote but not order." });
      const result = await client.GET("/api/dispatch/index");
      assert.throws(() => unwrap(result), {
        status: 402,
        type: "order_not_entitled",
        code: "order_not_entitled",
        message: "402 order_not_entitled: This key may quote but not order.",
      });
    });

    it("uses error_description of an OAuth error body", async () => {
      const client = answering(401, { error: "invalid_client", error_description: "Unknown client or wrong secret." });
      const result = await client.GET("/api/dispatch/index");
      assert.throws(() => unwrap(result), {
        status: 401,
        code: "invalid_client",
        message: "401 invalid_client: Unknown client or wrong secret.",
      });
    });

    it("falls back to the status text when there is no body", async () => {
      const client = answering(503, null);
      const result = await client.GET("/readyz");
      assert.throws(
        () => unwrap(result),
        (err: unknown) => err instanceof DispatchApiError && err.status === 503 && err.type === null,
      );
    });
  });
});
