// Inputs at the contract's bounds never fail in storage: valid requests at maximum lengths and
// integers, with astral-plane, combining and CJK characters, get no 5xx; invalid ones get the documented 4xx on
// REST, a tool error or -32602 over MCP (never -32603) and a failed task with validation_failed over A2A.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { listOperations, loadResolvedContract, type JsonObject } from "../../scripts/contract.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";
import { jsonRequest } from "../helpers/request.js";

const doc = await loadResolvedContract();
const operations = new Map(listOperations(doc).map((o) => [o.operationId, o]));
const runs = Number(process.env.BOUNDS_RUNS ?? 20);

// One code point each: ASCII, astral plane (2 UTF-16 units), CJK, and a base letter + combining accent (2).
const units = ["x", "\u{1D49C}", "中", "e\u0301"];

/** A string of exactly `max` code points built from one unit (padded with "x" when the unit does not divide). */
function fill(unit: string, max: number): string {
  const per = Array.from(unit).length;
  return unit.repeat(Math.floor(max / per)) + "x".repeat(max % per);
}

function boundString(s: JsonObject): fc.Arbitrary<string> {
  const max = s.maxLength as number;
  const min = (s.minLength as number | undefined) ?? 0;
  const pattern = s.pattern as string | undefined;
  const free = !pattern || new RegExp(pattern, "u").test(fill("\u{1D49C}", 3));
  if (free) return fc.constantFrom(...units.map((u) => fill(u, max)), fill("x", Math.max(min, 1)));
  return fc
    .stringMatching(new RegExp(pattern))
    .filter((v) => Array.from(v).length >= min && Array.from(v).length <= max)
    .map((v) => v);
}

/** Values at the bounds of a request schema: longest strings, smallest and largest integers, every property. */
function atBounds(s: JsonObject): fc.Arbitrary<unknown> {
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  if (type === "string") return boundString(s);
  if (type === "integer") return fc.constantFrom(s.minimum as number, s.maximum as number);
  if (type === "boolean") return fc.boolean();
  if (type === "array") {
    const items = atBounds(s.items as JsonObject);
    const size = { minLength: (s.minItems as number) ?? 0, maxLength: Math.min((s.maxItems as number) ?? 3, 3) };
    return s.uniqueItems
      ? fc.uniqueArray(items, { ...size, selector: (v) => JSON.stringify(v) })
      : fc.array(items, size);
  }
  const properties = Object.entries((s.properties ?? {}) as Record<string, JsonObject>)
    // Callback URLs are resolved in DNS at order time; that path has its own tests.
    .filter(([, p]) => p.format !== "uri");
  return fc.record(Object.fromEntries(properties.map(([k, p]) => [k, atBounds(p)])));
}

const bodyOf = (operationId: string) =>
  (
    (operations.get(operationId)!.operation.requestBody as JsonObject).content as Record<string, { schema: JsonObject }>
  )["application/json"].schema;

interface Target {
  operationId: string;
  headers: (t: Ctx) => Record<string, string>;
}
interface Ctx {
  key: string;
}
const admin = () => ({ authorization: `Bearer ${adminToken}` });
const keyed = (c: Ctx) => ({ "x-api-key": c.key });
const targets: Target[] = [
  { operationId: "createQuote", headers: keyed },
  { operationId: "createEstimate", headers: () => ({}) },
  { operationId: "createOrder", headers: keyed },
  { operationId: "createContractor", headers: admin },
  { operationId: "createApiKey", headers: admin },
  { operationId: "registerOAuthClient", headers: () => ({}) },
];

const post = (url: string, headers: Record<string, string>, body: unknown) =>
  jsonRequest(url, "POST", "", { headers, body });

const quote = { trade: "plumbing", location: { state: "TX", city: "Austin" }, description: "Leak" };
/** Invalid inputs found from outside; each is a 422 over REST. */
const invalidQuotes: [string, Record<string, unknown>][] = [
  ["a NUL in description", { ...quote, description: "a\u0000b" }],
  ["a lone surrogate in location.city", { ...quote, location: { state: "TX", city: "x\udc00" } }],
  ["state ßa (three characters upper-cased)", { ...quote, location: { state: "ßa" } }],
  ["state ZZ (no US state)", { ...quote, location: { state: "ZZ" } }],
  ["zip abcdefg", { ...quote, location: { state: "TX", zip: "abcdefg" } }],
  ["nte_cents 2^31", { ...quote, nte_cents: 2147483648 }],
];

/** Reads a JSON-RPC answer whether it came as JSON or as one server-sent event. */
async function rpcBody(response: Response): Promise<{ result?: Record<string, unknown>; error?: { code: number } }> {
  const text = await response.text();
  const data = response.headers.get("content-type")?.includes("event-stream")
    ? text
        .split("\n")
        .find((l) => l.startsWith("data:"))!
        .slice(5)
    : text;
  return JSON.parse(data);
}

for (const db of databases()) {
  describe(`input bounds (${db.name})`, function () {
    this.timeout(600_000);
    let t: TestServer;
    const ctx: Ctx = { key: "" };
    const counts = { valid: 0, invalid: 0, byStatus: {} as Record<number, number> };
    const tally = (status: number) => (counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1);

    before(async () => {
      t = await startTestServer(db, { RATE_LIMIT_POINTS: "100000" });
      ctx.key = (await t.issueKey({ account: "bounds" })).key;
    });
    after(async () => {
      console.log(
        `      bounds (${db.name}): ${counts.valid} valid requests at the bounds, ${counts.invalid} invalid; statuses ${JSON.stringify(counts.byStatus)}`,
      );
      await t?.stop();
    });

    for (const target of targets) {
      it(`${target.operationId}: ${runs} valid requests at the bounds get no 5xx`, async () => {
        const { path } = operations.get(target.operationId)!;
        await fc.assert(
          fc.asyncProperty(atBounds(bodyOf(target.operationId)), async (body) => {
            counts.valid++;
            const response = await post(t.url + path, target.headers(ctx), body);
            tally(response.status);
            const text = await response.text();
            assert.ok(response.status < 500, `${response.status} ${text.slice(0, 300)}`);
          }),
          { numRuns: runs, endOnFailure: true },
        );
      });
    }

    it("stores the longest astral-plane description and reads it back unchanged", async () => {
      const description = fill("\u{1D49C}", 5000);
      const response = await post(`${t.url}/api/dispatch/v1/order`, keyed(ctx), { ...quote, description });
      tally(response.status);
      assert.ok([201, 202].includes(response.status), String(response.status));
      const created = (await response.json()) as { tracking: { status_url: string } };
      const stored = await (await fetch(created.tracking.status_url, { headers: keyed(ctx) })).json();
      assert.equal(stored.description, description);
    });

    for (const [label, body] of invalidQuotes) {
      it(`answers ${label} with 422 on quote and order`, async () => {
        for (const path of ["/api/dispatch/v1/quote", "/api/dispatch/v1/order"]) {
          counts.invalid++;
          const response = await post(t.url + path, keyed(ctx), body);
          tally(response.status);
          assert.equal(response.status, 422, `${path}: ${await response.text()}`);
        }
      });

      it(`answers ${label} over MCP with a tool error, never -32603`, async () => {
        counts.invalid++;
        const response = await post(
          `${t.url}/api/mcp`,
          { authorization: `Bearer ${ctx.key}`, accept: "application/json, text/event-stream" },
          { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "dispatch.quote", arguments: body } },
        );
        const answer = await rpcBody(response);
        assert.notEqual(answer.error?.code, -32603, JSON.stringify(answer));
        assert.ok(answer.error?.code === -32602 || answer.result?.isError === true, JSON.stringify(answer));
      });

      it(`answers ${label} over A2A with a failed task naming validation_failed`, async () => {
        counts.invalid++;
        const message = {
          messageId: randomUUID(),
          role: "ROLE_USER",
          parts: [{ data: { skill: "dispatch.quote", input: body } }],
        };
        const response = await post(`${t.url}/api/a2a`, keyed(ctx), {
          jsonrpc: "2.0",
          id: 1,
          method: "SendMessage",
          params: { message },
        });
        const text = await response.text();
        assert.ok(response.status < 500, text);
        assert.ok(!text.includes("-32603") && !text.includes("internal_error"), text);
        assert.match(text, /validation_failed/);
      });
    }

    const refused: [string, string, string, unknown, number][] = [
      ["GET", "/api/dispatch/v1/orders/ord_%00x", "key", undefined, 422],
      ["GET", "/api/admin/v1/keys?account=%00", "admin", undefined, 422],
      ["GET", "/api/admin/v1/keys?cursor=%00", "admin", undefined, 422],
      ["GET", "/api/admin/v1/keys?limit=500", "admin", undefined, 422],
      ["POST", "/api/admin/v1/keys", "admin", { account: "acme", environment: "test", label: "a\u0000" }, 422],
      ["POST", "/api/admin/v1/orders/ord_x/events", "admin", { status: "completed", final_cost_cents: 2 ** 31 }, 422],
      ["POST", "/api/admin/v1/orders/ord_x/events", "admin", { status: "cancelled", note: "\u0000" }, 422],
      ["POST", "/api/mcp/oauth/register", "none", { client_name: "a\u0000" }, 400],
    ];
    for (const [method, path, auth, body, status] of refused) {
      it(`answers ${method} ${path} ${body ? JSON.stringify(body) : ""} with ${status}`, async () => {
        counts.invalid++;
        const headers: Record<string, string> = auth === "admin" ? admin() : auth === "key" ? keyed(ctx) : {};
        const response = await fetch(t.url + path, {
          method,
          headers: body ? { ...headers, "content-type": "application/json" } : headers,
          body: body ? JSON.stringify(body) : undefined,
        });
        tally(response.status);
        assert.equal(response.status, status, await response.text());
      });
    }

    it("answers a NUL client_id at the token endpoint with 400 invalid_request", async () => {
      counts.invalid++;
      const response = await fetch(`${t.url}/api/mcp/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&client_id=%00&client_secret=x",
      });
      tally(response.status);
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { error: string }).error, "invalid_request");
    });
  });
}
