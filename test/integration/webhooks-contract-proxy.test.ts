// The account's webhook operations pass `prism proxy openapi.yaml <server> --errors` without contract violations.
import assert from "node:assert/strict";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import { createDispatchClient, type DispatchClient } from "../../sdk/index.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";

interface Result {
  response: Response;
  error?: unknown;
}

function assertConforms({ response, error }: Result, status: number) {
  const violations = response.headers.get("sl-violations");
  assert.equal(violations, null, `contract violation: ${violations}`);
  assert.equal(response.status, status, JSON.stringify(error));
}

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
  });
}
