// SDK: idempotency keys (createOrder only) kept across retries, safe network retries, timeouts, paginate() and verifyWebhook().
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { createDispatchClient, DispatchTimeoutError, paginate } from "../../../sdk/index.js";
import { verifyWebhook, WebhookVerificationError } from "../../../sdk/webhooks.js";
import { operationIds } from "../../../sdk/generated/auth.js";

const order = {
  trade: "plumbing",
  location: { state: "TX", zip: "78701" },
  urgency: "urgent",
  description: "Kitchen sink leaking",
} as const;

describe("sdk client", () => {
  describe("order creation", () => {
    it("sends one generated Idempotency-Key and resends the same key on each retry", async () => {
      const keys: (string | null)[] = [];
      const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
        keys.push(new Request(input, init).headers.get("idempotency-key"));
        if (keys.length === 1) throw new TypeError("fetch failed");
        return keys.length === 2
          ? new Response(null, { status: 503, headers: { "retry-after": "0" } })
          : Response.json({});
      };
      const client = createDispatchClient({ baseUrl: "http://x.test", apiKey: "k", fetch, retry: { baseDelayMs: 1 } });
      await client.POST("/api/dispatch/v1/order", { body: order as never });
      assert.equal(keys.length, 3);
      assert.match(keys[0]!, /^[0-9a-f-]{36}$/);
      assert.deepEqual(new Set(keys).size, 1);
    });

    it("does not resend an unkeyed POST after a network error", async () => {
      let calls = 0;
      const fetch = async () => {
        calls++;
        throw new TypeError("fetch failed");
      };
      const client = createDispatchClient({ baseUrl: "http://x.test", fetch, retry: { baseDelayMs: 1 } });
      await assert.rejects(
        client.POST("/api/dispatch/v1/estimate", { body: { trade: "plumbing", state: "TX" } as never }),
      );
      assert.equal(calls, 1);
    });

    it("generates an Idempotency-Key for createOrder only, by operation (every operation in the table)", async () => {
      type LooseRequest = (
        method: string,
        path: string,
        init: { params: { path: Record<string, string> } },
      ) => Promise<unknown>;
      for (const [route, operationId] of Object.entries(operationIds)) {
        const [method, path] = route.split(" ");
        let key: string | null = null;
        const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
          key = new Request(input, init).headers.get("idempotency-key");
          return Response.json({});
        };
        const client = createDispatchClient({ baseUrl: "http://x.test", apiKey: "k", fetch, retry: false });
        const pathParams = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, "p1"]));
        await (client.request as unknown as LooseRequest)(method.toLowerCase(), path, { params: { path: pathParams } });
        assert.equal(key !== null, operationId === "createOrder", route);
      }
    });
  });

  describe("timeoutMs", () => {
    it("aborts an attempt that takes longer and raises DispatchTimeoutError", async () => {
      const fetch = (input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_, reject) => {
          const signal = new Request(input, init).signal;
          signal.addEventListener("abort", () => {
            reject(signal.reason as Error);
          });
        });
      const client = createDispatchClient({ baseUrl: "http://x.test", fetch, timeoutMs: 20, retry: false });
      await assert.rejects(client.GET("/api/dispatch/index"), DispatchTimeoutError);
    });
  });

  describe("paginate()", () => {
    it("follows next_cursor until it is null and yields every item", async () => {
      const pages: Record<string, unknown> = {
        "": { items: [{ id: "k1" }, { id: "k2" }], next_cursor: "c2" },
        c2: { items: [{ id: "k3" }], next_cursor: null },
      };
      const fetch = async (input: RequestInfo | URL, init?: RequestInit) =>
        Response.json(pages[new URL(new Request(input, init).url).searchParams.get("cursor") ?? ""]);
      const client = createDispatchClient({ baseUrl: "http://x.test", adminToken: "t", fetch });
      const ids: string[] = [];
      for await (const key of paginate(client, "/api/admin/v1/keys", { params: { query: { limit: 2 } } }))
        ids.push(key.id);
      assert.deepEqual(ids, ["k1", "k2", "k3"]);
    });
  });

  describe("verifyWebhook()", () => {
    const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
    const body = JSON.stringify({ type: "order.status_changed", data: { id: "ord_1" } });
    const sign = (payload: string, at: Date) => {
      const signature = new Webhook(secret).sign("msg_1", at, payload);
      return {
        "webhook-id": "msg_1",
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": signature,
      };
    };

    it("returns the event of a correctly signed body", () => {
      assert.deepEqual(verifyWebhook(body, sign(body, new Date()), secret), JSON.parse(body));
    });

    it("refuses a tampered body", () => {
      const headers = sign(body, new Date());
      assert.throws(() => verifyWebhook(body.replace("ord_1", "ord_2"), headers, secret), WebhookVerificationError);
    });

    it("refuses a timestamp older than five minutes", () => {
      const old = new Date(Date.now() - 10 * 60_000);
      assert.throws(() => verifyWebhook(body, sign(body, old), secret), WebhookVerificationError);
    });
  });
});
