// A 422 for a value that misses a contract pattern says what the pattern means (x-pattern-description), never the
// regular expression itself; a count of one is said in the singular ("at least 1 item").
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { quoteRequest } from "../fixtures/requests.js";
import { adminToken, startTestServer, type TestServer } from "../helpers/server.js";

describe("pattern messages", function () {
  this.timeout(120_000);
  let t: TestServer;
  before(async () => (t = await startTestServer(undefined, {}, { inject: true })));
  after(() => t?.stop());

  it("has an x-pattern-description beside every pattern of openapi.yaml (a new pattern needs its words)", () => {
    const contract = parse(readFileSync(new URL("../../openapi.yaml", import.meta.url), "utf8")) as unknown;
    const missing: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (!node || typeof node !== "object") return;
      const record = node as Record<string, unknown>;
      if (typeof record.pattern === "string" && typeof record["x-pattern-description"] !== "string") missing.push(path);
      for (const [key, value] of Object.entries(record)) walk(value, `${path}/${key}`);
    };
    walk(contract, "");
    assert.deepEqual(missing, []);
  });

  it("answers a bad ZIP with 'a 5-digit ZIP or ZIP+4', not the expression", async () => {
    const { key } = await t.issueKey({ account: "patterns" });
    const response = await t.fetch(`${t.url}/api/dispatch/v1/quote`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ ...quoteRequest, location: { state: "TX", zip: "7870" } }),
    });
    assert.equal(response.status, 422);
    const problem = (await response.json()) as { errors: { pointer: string; message: string }[] };
    const zip = problem.errors.find((e) => e.pointer === "/location/zip");
    assert.ok(zip, JSON.stringify(problem));
    assert.match(zip.message, /a 5-digit ZIP or ZIP\+4/);
    assert.doesNotMatch(JSON.stringify(problem), /\\\\d|\^/);
  });

  it("says a count of one in the singular", async () => {
    const keys = await t.fetch(`${t.url}/api/admin/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ account: "patterns", environment: "test", scopes: [] }),
    });
    assert.equal(keys.status, 422);
    const problem = (await keys.json()) as { detail: string; errors: { pointer: string; message: string }[] };
    assert.deepEqual(problem.errors, [{ pointer: "/scopes", message: '"scopes" must contain at least 1 item' }]);
  });
});
