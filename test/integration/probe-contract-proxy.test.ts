// probeStorefront answers (200 reports, 400 invalid_url, 429) pass through `prism proxy openapi.yaml --errors`
// without contract violations.
import assert from "node:assert/strict";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import { createDispatchClient } from "../../sdk/index.js";
import { serveStorefront, type Storefront } from "../fixtures/storefronts/serve.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

describe("probeStorefront through the Prism validating proxy", function () {
  this.timeout(120_000);
  let t: TestServer;
  let prism: PrismHandle;
  let good: Storefront;
  let poor: Storefront;
  before(async () => {
    [t, good, poor] = await Promise.all([
      startTestServer(undefined, { PROBE_ALLOW_PRIVATE: "true" }),
      serveStorefront("good"),
      serveStorefront("poor"),
    ]);
    prism = await startPrism({ mode: "proxy", upstream: t.url });
  });
  after(async () => {
    await prism?.stop();
    await Promise.all([t?.stop(), good?.close(), poor?.close()]);
  });

  it("200 for both storefronts, 400 for refused targets, 429 for the 11th probe in a minute", async () => {
    const client = createDispatchClient({ baseUrl: prism.url, retry: false });
    const probe = (url: string) => client.POST("/api/agentic-commerce/probe", { body: { url } });
    const conforms = (r: { response: Response }, status: number) => {
      assert.equal(
        r.response.headers.get("sl-violations"),
        null,
        `contract violation: ${r.response.headers.get("sl-violations")}`,
      );
      assert.equal(r.response.status, status);
    };
    const graded = await probe(good.url);
    conforms(graded, 200);
    assert.equal(graded.data!.grade, "A");
    const poorly = await probe(`${poor.url}/`);
    conforms(poorly, 200);
    assert.equal(poorly.data!.grade, "F");
    for (const url of [
      "http://10.0.0.1",
      "http://169.254.169.254/latest/meta-data",
      "http://[fe80::1]",
      "ftp://example.com",
      "javascript:alert(1)",
      `${poor.url}/go-metadata`,
      "http://metadata.google.internal",
      "http://user:pass@example.com",
    ]) {
      conforms(await probe(url), 400);
    }
    const limited = await probe(good.url);
    conforms(limited, 429);
    assert.ok(Number(limited.response.headers.get("retry-after")) >= 1);
  });
});
