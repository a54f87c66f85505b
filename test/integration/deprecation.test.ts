// Deprecation policy end to end: the contract's `deprecated: true` (audit records' chain_position) drives
// Deprecation/Sunset/Link headers on the answers that carry it, and the SDK and CLI say so once per process.
import assert from "node:assert/strict";
import { quoteRequest } from "../fixtures/requests.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createDispatchClient, type DeprecationNotice } from "../../sdk/index.js";
import { resetDeprecationWarning } from "../../sdk/deprecation.js";
import { runCli } from "../cli/run-cli.js";

// x-deprecated-since 2026-11-24 and x-sunset 2027-11-24 of chain_position in openapi.yaml.
const since = `@${Date.UTC(2026, 10, 24) / 1000}`;
const sunset = new Date(Date.UTC(2027, 10, 24)).toUTCString();

describe("deprecation headers and warnings", function () {
  this.timeout(60_000);
  let t: TestServer;
  let key: string;
  let seal: string;

  before(async () => {
    t = await startTestServer();
    key = (await t.issueKey({ account: "deprecation" })).key;
    const response = await fetch(`${t.url}/api/dispatch/v1/quote`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(quoteRequest),
    });
    seal = ((await response.json()) as { seal: string }).seal;
  });
  after(async () => t?.stop());
  afterEach(() => {
    resetDeprecationWarning();
  });

  it("listAuditRecords answers carry Deprecation, Sunset and a rel=deprecation Link, and both position fields", async () => {
    const response = await fetch(`${t.url}/api/audit/v1/records`, { headers: { "x-api-key": key } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("deprecation"), since);
    assert.equal(response.headers.get("sunset"), sunset);
    assert.equal(
      response.headers.get("link"),
      '</docs#operation/listAuditRecords>; rel="deprecation"; type="text/html"',
    );
    const { items } = (await response.json()) as { items: { chain_position: number; log_position: number }[] };
    assert.ok(items.length > 0);
    for (const item of items) assert.equal(item.log_position, item.chain_position);
  });

  it("verifySeal answers carry the headers too; operations without deprecated items do not", async () => {
    const verified = await fetch(`${t.url}/api/attest/verify/${seal}`);
    assert.equal(verified.headers.get("deprecation"), since);
    const body = (await verified.json()) as { chain_position: number; log_position: number };
    assert.equal(body.log_position, body.chain_position);
    const evals = await fetch(`${t.url}/api/dispatch/analytics/evals`);
    assert.equal(evals.status, 200);
    assert.equal(evals.headers.get("deprecation"), null);
    assert.equal(evals.headers.get("sunset"), null);
  });

  it("the trade index and the capability index carry the headers of their camelCase twins (since 2026-11-29)", async () => {
    const index = await fetch(`${t.url}/api/dispatch/index`);
    assert.equal(index.headers.get("deprecation"), `@${Date.UTC(2026, 10, 29) / 1000}`);
    assert.equal(index.headers.get("sunset"), new Date(Date.UTC(2027, 10, 29)).toUTCString());
    const { trades } = (await index.json()) as { trades: Record<string, unknown>[] };
    for (const trade of trades) assert.equal(trade.medianRateDollars, trade.median_rate_dollars);
    const capabilities = await fetch(`${t.url}/api/capabilities`);
    assert.equal(capabilities.headers.get("deprecation"), `@${Date.UTC(2026, 10, 29) / 1000}`);
    const body = (await capabilities.json()) as { capabilities: { rest: Record<string, unknown> }[] };
    for (const { rest } of body.capabilities) assert.equal(rest.operationId, rest.operation_id);
  });

  it("a 4xx answer of an operation with only a deprecated response field carries no headers", async () => {
    const response = await fetch(`${t.url}/api/audit/v1/records?limit=0`, { headers: { "x-api-key": key } });
    assert.equal(response.status, 422);
    assert.equal(response.headers.get("deprecation"), null);
  });

  it("the SDK reports the first deprecated answer once per process", async () => {
    const notices: DeprecationNotice[] = [];
    const client = createDispatchClient({ baseUrl: t.url, apiKey: key, onDeprecation: (n) => notices.push(n) });
    await client.GET("/api/audit/v1/records");
    await client.GET("/api/audit/v1/records");
    await client.GET("/api/attest/verify/{seal}", { params: { path: { seal } } });
    assert.equal(notices.length, 1);
    assert.equal(notices[0].deprecation, since);
    assert.equal(notices[0].link, `${t.url}/docs#operation/listAuditRecords`);
  });

  it("the CLI warns once on stderr and keeps stdout to the data", async () => {
    const run = await runCli(["api", "GET", "/api/audit/v1/records", "-o", "json"], {
      env: { DISPATCH_BASE_URL: t.url, DISPATCH_API_KEY: key },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr.match(/deprecated since 2026-11-24/g)?.length, 1, run.stderr);
    assert.ok(run.stderr.includes("2027-11-24"));
    assert.ok(Array.isArray((JSON.parse(run.stdout) as { items: unknown[] }).items));
  });
});
