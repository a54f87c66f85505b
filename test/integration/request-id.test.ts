// Request ids on answers and in problems.
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";

describe("request ids", function () {
  this.timeout(30_000);
  let t: TestServer;
  before(async () => (t = await startTestServer(undefined, {}, { inject: true })));
  after(() => t?.stop());

  it("echoes a sane X-Request-Id and puts it in problems", async () => {
    const response = await t.fetch(`${t.url}/api/dispatch/v1/quote`, {
      method: "POST",
      headers: { "x-request-id": "trace-123" },
    });
    assert.equal(response.headers.get("x-request-id"), "trace-123");
    assert.equal((await response.json()).request_id, "trace-123");
  });

  it("replaces an unusable one with a generated req_ id", async () => {
    const response = await t.fetch(`${t.url}/healthz`, { headers: { "x-request-id": "bad id with spaces" } });
    assert.match(response.headers.get("x-request-id")!, /^req_[0-9A-Za-z]{16}$/);
  });
});
