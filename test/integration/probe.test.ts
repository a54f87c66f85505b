// probeStorefront: fixture storefronts graded, SSRF forms refused with 400 before any connection, redirects
// re-validated, 10 probes per minute per IP. Only loopback is ever contacted (there is no internet here).
import assert from "node:assert/strict";
import type { components } from "../../sdk/generated/openapi.js";
import { serveStorefront, type Storefront } from "../fixtures/storefronts/serve.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

type Report = components["schemas"]["ProbeReport"];
type Problem = components["schemas"]["Problem"];

let ipCounter = 0;
/** Probes through server.inject from a fresh client IP each time unless one is given (the limit is per IP). */
async function probe(t: TestServer, payload: unknown, remoteAddress = `198.51.100.${++ipCounter % 250}`) {
  const response = await t.app.server.inject({
    method: "POST",
    url: "/api/agentic-commerce/probe",
    payload: payload as object,
    remoteAddress,
  });
  return {
    status: response.statusCode,
    body: JSON.parse(response.payload) as Report & Problem,
    headers: response.headers,
  };
}
const byId = (report: Report) => Object.fromEntries(report.checks.map((c) => [c.id, c]));

describe("probeStorefront against fixture storefronts (PROBE_ALLOW_PRIVATE=true)", function () {
  this.timeout(60_000);
  let t: TestServer;
  let good: Storefront;
  let poor: Storefront;
  before(async () => {
    [t, good, poor] = await Promise.all([
      startTestServer(undefined, { PROBE_ALLOW_PRIVATE: "true" }, { inject: true }),
      serveStorefront("good"),
      serveStorefront("poor"),
    ]);
  });
  after(async () => Promise.all([t?.stop(), good?.close(), poor?.close()]));

  it("grades the good storefront A with every check passed", async () => {
    const { status, body } = await probe(t, { url: `${good.url}/` });
    assert.equal(status, 200);
    assert.deepEqual([body.grade, body.score, body.snapshot, body.attested], ["A", 100, true, false]);
    assert.match(body.disclaimer, /free snapshot.*not an attested grade/);
    assert.ok(
      body.checks.every((c) => c.passed),
      JSON.stringify(body.checks),
    );
    assert.match(byId(body).sitemap.detail, /\/sitemaps\/main\.xml/); // the sitemap robots.txt names
    assert.ok(good.requests.includes("/sitemaps/main.xml"));
  });

  it("grades the poor storefront F and says which checks failed", async () => {
    const { status, body } = await probe(t, { url: poor.url });
    assert.equal(status, 200);
    assert.deepEqual([body.grade, body.score], ["F", 30]);
    const checks = byId(body);
    assert.deepEqual(Object.fromEntries(body.checks.map((c) => [c.id, c.passed])), {
      home_page: true,
      agent_card: false,
      robots_txt: true,
      llms_txt: false,
      sitemap: true,
      product_schema: false,
      answer_engine_access: false,
    });
    assert.match(checks.llms_txt.detail, /forbidden/); // /llms.txt redirects to the metadata address
    assert.match(checks.product_schema.detail, /without an Offer/);
    assert.match(checks.answer_engine_access.detail, /GPTBot, .*ClaudeBot, PerplexityBot/);
    assert.equal(checks.agent_card.weight, 20);
  });

  it("answers 400 invalid_url when the home page redirects to a forbidden address or scheme", async () => {
    for (const path of ["/go-metadata", "/go-private", "/go-file"]) {
      const { status, body } = await probe(t, { url: `${poor.url}${path}` });
      assert.deepEqual([status, body.code], [400, "invalid_url"], path);
    }
  });

  it("stops after 3 redirects", async () => {
    const { status, body } = await probe(t, { url: `${poor.url}/hop1` });
    assert.equal(status, 200);
    assert.equal(byId(body).home_page.passed, false);
    assert.match(byId(body).home_page.detail, /more than 3 redirects/);
  });

  it("answers 400 invalid_url (not 422) for a missing, non-string, too long or extra field", async () => {
    for (const payload of [
      {},
      { url: 5 },
      { url: "" },
      { url: `https://${"a".repeat(250)}.com` },
      { url: "https://a.example", extra: 1 },
    ]) {
      const { status, body } = await probe(t, payload);
      assert.deepEqual([status, body.code], [400, "invalid_url"], JSON.stringify(payload));
    }
  });
});

describe("probeStorefront SSRF guard (PROBE_ALLOW_PRIVATE unset)", function () {
  this.timeout(60_000);
  let t: TestServer;
  let trap: Storefront;
  before(async () => {
    [t, trap] = await Promise.all([startTestServer(undefined, {}, { inject: true }), serveStorefront("good")]);
  });
  after(async () => Promise.all([t?.stop(), trap?.close()]));

  it("refuses every private, loopback, metadata and non-http form with 400 before connecting", async () => {
    const port = new URL(trap.url).port;
    const urls = [
      `http://127.0.0.1:${port}`,
      `http://localhost:${port}`,
      `http://[::1]:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
      `http://2130706433:${port}`,
      `http://0177.0.0.1:${port}`,
      `http://0x7f000001:${port}`,
      `http://0x7f.0.0.1:${port}`,
      `http://127.1:${port}`,
      `http://0.0.0.0:${port}`,
      `127.0.0.1:${port}`,
      `http://shop.localhost:${port}`,
      "http://10.0.0.1",
      "http://192.168.1.1",
      "http://172.16.0.1",
      "http://100.64.0.1",
      "http://169.254.169.254/latest/meta-data",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://[fe80::1]",
      "http://[fc00::1]",
      "http://[fd00:ec2::254]",
      "http://224.0.0.1",
      "http://[::]",
      "file:///etc/passwd",
      "ftp://example.com",
      "javascript:alert(1)",
      "http://user:pass@example.com",
      "gopher://example.com:70/_",
      "data:text/html,hi",
      "http://intranet",
    ];
    for (const url of urls) {
      const { status, body } = await probe(t, { url });
      assert.deepEqual([status, body.code], [400, "invalid_url"], url);
      assert.equal(body.title, "Bad Request");
    }
    assert.deepEqual(trap.requests, [], "a refused probe reached the loopback trap");
  });

  it("answers the 11th probe in a minute from one IP 429 with Retry-After", async () => {
    const ip = "203.0.113.77";
    for (let i = 0; i < 10; i++) assert.equal((await probe(t, { url: "http://10.0.0.1" }, ip)).status, 400);
    const limited = await probe(t, { url: "http://10.0.0.1" }, ip);
    assert.deepEqual([limited.status, limited.body.code], [429, "rate_limited"]);
    assert.ok(Number(limited.headers["retry-after"]) >= 1);
    assert.equal((await probe(t, { url: "http://10.0.0.1" }, "203.0.113.78")).status, 400);
  });
});
