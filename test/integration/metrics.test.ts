// Metrics: Prometheus text behind the admin token on the main port (/api/admin/v1/metrics), without it at /metrics on
// METRICS_PORT; every family docs/operating.md lists, with values that follow the traffic (route templates, outbox, audit
// queue, streams, pool).
import assert from "node:assert/strict";
import { freePort } from "../../mocks/prism.js";
import { orderRequest, quoteRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { openSse } from "../helpers/sse.js";
import { sleep, until } from "../helpers/wait.js";

/** Samples by `name{labels}` as printed (labels in prom-client's order), e.g. `dispatch_event_streams_open`. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*(?:\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})?) (\S+)$/.exec(line);
    if (match) found.set(match[1], Number(match[2]));
  }
  return found;
}

async function scrape(url: string, token: string | null = adminToken): Promise<Map<string, number>> {
  const response = await fetch(`${url}/api/admin/v1/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  assert.equal(response.status, 200, await response.clone().text());
  return samples(await response.text());
}

const quoteCount =
  'http_request_duration_seconds_count{method="POST",route="/api/dispatch/v1/quote",status_code="200"}';

for (const db of databases())
  describe(`GET /metrics (${db.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      // Failed deliveries wait a minute before their retry, so they stay in the outbox while the suite looks.
      t = await startTestServer(db, { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_BACKOFF_MS: "60000" });
      key = (await t.issueKey({ account: "metrics" })).key;
    });
    after(async () => t?.stop());

    describe("auth", () => {
      for (const [name, headers] of [
        ["no token", {}],
        ["a wrong token", { authorization: "Bearer not-the-admin-token-at-all" }],
        ["an API key as the token", { authorization: "Bearer dispatch_test_0000000000000000000000" }],
      ] as const)
        it(`answers 401 problem+json to ${name}`, async () => {
          const response = await fetch(`${t.url}/api/admin/v1/metrics`, { headers });
          assert.equal(response.status, 401);
          assert.match(response.headers.get("content-type") ?? "", /^application\/problem\+json/);
          assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer/);
          const problem = (await response.json()) as { status: number };
          assert.equal(problem.status, 401);
        });

      it("answers 200 in the Prometheus text format to the admin token, not to be cached", async () => {
        const response = await fetch(`${t.url}/api/admin/v1/metrics`, {
          headers: { authorization: `Bearer ${adminToken}` },
        });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
        assert.equal(response.headers.get("cache-control"), "no-store");
        assert.match(await response.text(), /^# HELP /m);
      });
    });

    describe("content", () => {
      it("times requests by method, route template and status code, never by raw URL", async () => {
        const before = (await scrape(t.url)).get(quoteCount) ?? 0;
        const headers = { "x-api-key": key, "content-type": "application/json" };
        for (let i = 0; i < 3; i++)
          assert.equal(
            (
              await fetch(`${t.url}/api/dispatch/v1/quote`, {
                method: "POST",
                headers,
                body: JSON.stringify(quoteRequest),
              })
            ).status,
            200,
          );
        const missing = "ord_01JD8XZZZZZZZZZZZZZZZZZZZZ";
        assert.equal((await fetch(`${t.url}/api/dispatch/v1/orders/${missing}`, { headers })).status, 404);
        const after = await scrape(t.url);
        assert.equal(after.get(quoteCount), before + 3);
        const sum = after.get(quoteCount.replace("_count{", "_sum{"))!;
        assert.ok(sum > 0 && sum < 60, `quote duration sum ${sum}`);
        assert.equal(
          after.get(quoteCount.replace("_count{", '_bucket{le="+Inf",').replace(/,}$/, "}")),
          before + 3,
          "the +Inf bucket counts every quote",
        );
        const getOrder = 'method="GET",route="/api/dispatch/v1/orders/{id}",status_code="404"';
        const text = [...after.keys()].join("\n");
        assert.equal(after.get(`http_request_duration_seconds_count{${getOrder}}`), 1);
        assert.ok(!text.includes(missing), "a raw URL became a label");
      });

      it("counts undelivered webhooks and their lag (an order whose callback URL refuses connections)", async () => {
        const closed = await freePort(); // nothing listens there: every attempt fails and is retried later
        const response = await postOrder(
          t.url,
          { "x-api-key": key },
          { ...orderRequest, reference_id: "metrics-outbox", callback_url: `http://127.0.0.1:${closed}/hooks` },
        );
        assert.equal(response.status, 201);
        await sleep(50); // the clock moves: the oldest pending row's age (the lag below) is above 0
        const found = await scrape(t.url);
        assert.ok(found.get("dispatch_webhook_outbox_pending")! >= 1, "outbox depth");
        const lag = found.get("dispatch_webhook_outbox_oldest_pending_age_seconds")!;
        assert.ok(lag > 0 && lag < 60, `outbox lag ${lag}`);
      });

      it("counts open event streams: 1 with one SSE client, 0 once it has gone", async () => {
        const order = await postOrder(t.url, { "x-api-key": key }, { ...orderRequest, reference_id: "metrics-sse" });
        const { id } = ((await order.json()) as { order: { id: string } }).order;
        assert.equal((await scrape(t.url)).get("dispatch_event_streams_open"), 0);
        const sse = await openSse(`${t.url}/api/dispatch/v1/orders/${id}/events`, { "x-api-key": key });
        assert.equal(sse.status, 200);
        assert.equal((await scrape(t.url)).get("dispatch_event_streams_open"), 1);
        sse.close();
        await sse.ended;
        await until(async () => (await scrape(t.url)).get("dispatch_event_streams_open") === 0);
      });

      it("reports the database pool (used + free within its max) and the default process metrics", async () => {
        const found = await scrape(t.url);
        const max = found.get("dispatch_db_pool_max_connections")!;
        assert.equal(max, db.name === "pglite" ? 1 : 10);
        const used = found.get('dispatch_db_pool_connections{state="used"}')!;
        const free = found.get('dispatch_db_pool_connections{state="free"}')!;
        assert.ok(used >= 0 && free >= 0 && used + free <= max, `used ${used}, free ${free}`);
        assert.ok(found.get('dispatch_db_pool_connections{state="pending"}')! >= 0);
        for (const name of [
          "process_cpu_user_seconds_total",
          "process_resident_memory_bytes",
          "nodejs_heap_size_used_bytes",
        ])
          assert.ok(found.get(name)! > 0, name);
      });

      // Last: it stops the audit sequencer for good.
      it("counts audit records waiting for the sequencer and the newest checkpoint's age", async () => {
        await until(async () => (await scrape(t.url)).has("dispatch_audit_checkpoint_age_seconds"));
        await t.app.services.auditLog.stop(); // records now wait
        for (const ref of ["metrics-audit-1", "metrics-audit-2"])
          assert.equal(
            (await postOrder(t.url, { "x-api-key": key }, { ...orderRequest, reference_id: ref })).status,
            201,
          );
        const found = await scrape(t.url);
        assert.ok(found.get("dispatch_audit_pending_records")! >= 2, "audit records waiting");
        const age = found.get("dispatch_audit_checkpoint_age_seconds")!;
        assert.ok(age >= 0 && age < 120, `checkpoint age ${age}`);
      });
    });
  });

describe("METRICS_PORT", function () {
  this.timeout(60_000);

  it("serves GET /metrics there without a token (and nothing else), while the main port still wants one", async () => {
    const port = await freePort();
    const t = await startTestServer(undefined, { METRICS_PORT: String(port), DISPATCH_ADMIN_TOKEN: "" });
    try {
      const open = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.equal(open.status, 200);
      assert.equal(open.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
      assert.ok(samples(await open.text()).has("dispatch_event_streams_open"));
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 404);
      assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`, { method: "POST" })).status, 404);
      const main = await fetch(`${t.url}/api/admin/v1/metrics`); // no admin token configured: the admin area is off
      assert.equal(main.status, 503);
      assert.equal(((await main.json()) as { code: string }).code, "admin_disabled");
    } finally {
      await t.stop();
    }
    await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`), "the metrics listener closes with the server");
  });
});
