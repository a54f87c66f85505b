// Contract fuzzing: requests generated from openapi.yaml for every operation. Valid ones go through
// `prism proxy --errors` (every answer must conform); invalid ones go straight to the server (every one must be
// refused with a documented 4xx in the documented format). No answer may be a 5xx.
import assert from "node:assert/strict";
import fc from "fast-check";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import {
  loadResolvedContract,
  listOperations,
  type ContractOperation,
  type JsonObject,
} from "../../scripts/contract.js";
import { mutations, valid } from "../helpers/schema-arbitrary.js";
import { adminToken, startTestServer, type TestServer } from "../helpers/server.js";

const doc = await loadResolvedContract();
const validRuns = Number(process.env.FUZZ_RUNS ?? 20);
const counts = { valid: 0, invalid: 0, byStatus: {} as Record<string, number> };

interface Built {
  path: string;
  query: Record<string, unknown>;
  body?: unknown;
  contentType?: string;
}

function requestSchema(op: JsonObject): { contentType: string; schema: JsonObject } | null {
  const content = ((op.requestBody as JsonObject | undefined)?.content ?? null) as Record<string, JsonObject> | null;
  if (!content) return null;
  const [contentType, media] = Object.entries(content)[0];
  return { contentType, schema: media.schema as JsonObject };
}

function arbitraryRequest(entry: ContractOperation): fc.Arbitrary<Built> {
  const op = entry.operation;
  const params = (op.parameters ?? []) as JsonObject[];
  const pathArbs = Object.fromEntries(
    params.filter((p) => p.in === "path").map((p) => [p.name as string, fc.stringMatching(/^[a-z0-9_]{1,30}$/)]),
  );
  const queryArbs = Object.fromEntries(
    params.filter((p) => p.in === "query").map((p) => [p.name as string, valid(p.schema as JsonObject)]),
  );
  const body = requestSchema(op);
  const bodyArb =
    entry.operationId === "probeStorefront"
      ? fc.record({ url: fc.domain().map((d) => `https://${d.split(".")[0]}.invalid/`) })
      : body
        ? valid(body.schema)
        : fc.constant(undefined);
  return fc
    .record({ pathValues: fc.record(pathArbs), query: fc.record(queryArbs, { requiredKeys: [] }), body: bodyArb })
    .map(({ pathValues, query, body: b }) => ({
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- arbitraries may yield numbers at run time
      path: entry.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(pathValues[name]))),
      query,
      body: b,
      contentType: body?.contentType,
    }));
}

function headersFor(entry: ContractOperation, key: string): Record<string, string> {
  const schemes = ((entry.operation.security ?? []) as JsonObject[]).flatMap((r) => Object.keys(r));
  const headers: Record<string, string> = { accept: "application/json, text/event-stream, application/problem+json" };
  if (schemes.includes("AdminToken")) headers.authorization = `Bearer ${adminToken}`;
  else if (schemes.includes("McpBearerKey")) headers.authorization = `Bearer ${key}`;
  else if (schemes.includes("ApiKey")) headers["x-api-key"] = key;
  return headers;
}

async function send(
  base: string,
  entry: ContractOperation,
  built: Built,
  headers: Record<string, string>,
  rawBody?: string,
) {
  const url = new URL(base + built.path);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- query values are scalars generated from the contract
  for (const [k, v] of Object.entries(built.query)) if (v !== undefined) url.searchParams.set(k, String(v));
  const form = built.contentType === "application/x-www-form-urlencoded";
  const body =
    rawBody ??
    (built.body === undefined
      ? undefined
      : form
        ? new URLSearchParams(built.body as Record<string, string>).toString()
        : JSON.stringify(built.body));
  const response = await fetch(url, {
    method: entry.method.toUpperCase(),
    headers: { ...headers, ...(body !== undefined && built.contentType ? { "content-type": built.contentType } : {}) },
    body,
  });
  counts.byStatus[response.status] = (counts.byStatus[response.status] ?? 0) + 1;
  return response;
}

function documentedMediaType(entry: ContractOperation, status: number): string | null | undefined {
  const response = (entry.operation.responses as JsonObject)[String(status)] as JsonObject | undefined;
  if (!response) return undefined;
  return response.content ? Object.keys(response.content)[0] : null;
}

describe("contract fuzzing", function () {
  this.timeout(600_000);
  let t: TestServer;
  let prism: PrismHandle;
  let key: string;

  before(async () => {
    t = await startTestServer(undefined, { RATE_LIMIT_POINTS: "100000", WEBHOOK_ALLOW_PRIVATE: "false" });
    prism = await startPrism({ mode: "proxy", upstream: t.url });
    key = (await t.issueKey({ account: "fuzz" })).key;
  });
  after(async () => {
    console.log(
      `      fuzz: ${counts.valid} valid requests through the Prism proxy, ${counts.invalid} invalid requests to the server; statuses ${JSON.stringify(counts.byStatus)}`,
    );
    await prism?.stop();
    await t?.stop();
  });

  for (const entry of listOperations(doc)) {
    describe(entry.operationId, () => {
      it(`answers ${validRuns} generated valid requests in conformance with the contract`, async () => {
        await fc.assert(
          fc.asyncProperty(arbitraryRequest(entry), async (built) => {
            counts.valid++;
            const response = await send(prism.url, entry, built, headersFor(entry, key));
            const violations = response.headers.get("sl-violations");
            const text = await response.text();
            assert.ok(response.status < 500, `${response.status} ${violations ?? ""} ${text.slice(0, 300)}`);
            assert.equal(violations, null, text.slice(0, 300));
          }),
          { numRuns: validRuns, endOnFailure: true },
        );
      });

      const body = requestSchema(entry.operation);
      if (body?.schema.type !== "object") return;
      it("refuses every invalid body with a documented 4xx in the documented format", async () => {
        const sample = fc.sample(valid(body.schema), { numRuns: 1, seed: 42 })[0] as Record<string, unknown>;
        const built = fc.sample(arbitraryRequest(entry), { numRuns: 1, seed: 7 })[0];
        const cases = [
          ...mutations(body.schema).map((m) => ({
            label: m.label,
            raw: undefined as string | undefined,
            body: m.apply(sample),
          })),
          { label: "malformed JSON", raw: "{not json", body: undefined },
        ];
        for (const c of cases) {
          if (body.contentType !== "application/json" && c.raw) continue;
          counts.invalid++;
          const response = await send(t.url, entry, { ...built, body: c.body }, headersFor(entry, key), c.raw);
          const text = await response.text();
          const rpc = entry.path === "/api/mcp" || entry.path === "/api/a2a";
          if (rpc && response.status === 200) {
            assert.ok(JSON.parse(text).error, `${c.label}: JSON-RPC endpoints refuse with an error member`);
            continue;
          }
          assert.ok(
            response.status >= 400 && response.status < 500,
            `${c.label}: ${response.status} ${text.slice(0, 200)}`,
          );
          const media = documentedMediaType(entry, response.status);
          assert.notEqual(
            media,
            undefined,
            `${c.label}: status ${response.status} is not documented for ${entry.operationId}`,
          );
          if (media)
            assert.equal(
              response.headers.get("content-type")?.split(";")[0],
              media,
              `${c.label}: ${text.slice(0, 200)}`,
            );
        }
      });
    });
  }
});
