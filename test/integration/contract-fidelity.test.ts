// Answers that must be what openapi.yaml says on every surface: JSON bodies are not converted ("45000" is no
// integer), a callback_url `new URL` refuses is a field error (never a 500 or -32603), an Idempotency-Key and a
// reference_id that name two orders are a 409, the JSON-RPC endpoints use the spec's codes, a `null` body is
// no client metadata, and the contract's seal parameter refuses what verifySeal answers 400.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import {
  firstExample,
  listOperations,
  loadContract,
  loadResolvedContract,
  type JsonObject,
} from "../../scripts/contract.js";
import { contractorInput } from "../fixtures/requests.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";

const order = { trade: "plumbing", location: { state: "TX", zip: "78701" }, description: "Leaking water heater." };
const mcpAccept = "application/json, text/event-stream";
const ajv = new Ajv2020({ strict: false });
formats.default(ajv);
const resolved = await loadResolvedContract();
/** Values of callback_url that joi's uri() passed and `new URL` refuses. */
const unparsableUrls = ["http://x:99999/", "http://%zz/", "http://a%00b/", "http://127.0.0.1%2509:4250/"];

interface RpcAnswer {
  id: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

for (const db of databases()) {
  describe(`contract fidelity (${db.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let key: string;
    let everyScope: string;
    before(async () => {
      t = await startTestServer(db);
      key = (await t.issueKey({ account: "fidelity", scopes: ["quote", "order", "orders:read"] })).key;
      everyScope = (await t.issueKey({ account: "fidelity" })).key;
    });
    after(() => t?.stop());

    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${t.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    const createOrder = (body: unknown, headers: Record<string, string> = {}) =>
      post("/api/dispatch/v1/order", JSON.stringify(body), { "x-api-key": key, ...headers });
    const rpc = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await post(path, typeof body === "string" ? body : JSON.stringify(body), headers);
      return { status: response.status, body: (await response.json()) as RpcAnswer };
    };
    /** The parsed text of an MCP tools/call result (a tool error carries `code` and `errors`). */
    const callTool = async (name: string, args: unknown): Promise<Record<string, unknown>> => {
      const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } };
      const { status, body } = await rpc("/api/mcp", message, { accept: mcpAccept, authorization: `Bearer ${key}` });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.error, undefined, JSON.stringify(body));
      const content = body.result!.content as { text: string }[];
      const parsed = JSON.parse(content[0].text) as Record<string, unknown>;
      return { ...parsed, isError: body.result!.isError };
    };
    /** The state and status data of the task an A2A SendMessage to `skill` makes. */
    const askSkill = async (skill: string, input: unknown) => {
      const message = { messageId: randomUUID(), role: "ROLE_USER", parts: [{ data: { skill, input } }] };
      const { status, body } = await rpc(
        "/api/a2a",
        { jsonrpc: "2.0", id: 2, method: "SendMessage", params: { message } },
        { "x-api-key": key },
      );
      assert.equal(status, 200, JSON.stringify(body));
      const task = (body.result as { task: { status: { state: string; message?: { parts: { data?: unknown }[] } } } })
        .task;
      const data = task.status.message?.parts.find((p) => p.data)?.data as Record<string, unknown> | undefined;
      return { state: task.status.state, data };
    };
    const pointers = (errors: unknown) => (errors as { pointer: string }[]).map((e) => e.pointer);

    describe("JSON bodies are not converted", () => {
      for (const nte of ["45000", " 45000 "]) {
        it(`answers nte_cents ${JSON.stringify(nte)} with 422 on REST, a tool error on MCP, a failed task on A2A`, async () => {
          const rest = await createOrder({ ...order, nte_cents: nte });
          assert.equal(rest.status, 422);
          assert.deepEqual(pointers(((await rest.json()) as { errors: unknown }).errors), ["/nte_cents"]);
          const tool = await callTool("dispatch.order", { ...order, nte_cents: nte });
          assert.equal(tool.isError, true);
          assert.deepEqual(pointers(tool.errors), ["/nte_cents"]);
          const skill = await askSkill("dispatch.order", { ...order, nte_cents: nte });
          assert.equal(skill.state, "TASK_STATE_FAILED");
          assert.deepEqual(pointers(skill.data?.errors), ["/nte_cents"]);
        });
      }

      it('answers emergency_capable "true" with 422 and stores no contractor', async () => {
        const admin = { authorization: `Bearer ${adminToken}` };
        const body = { ...contractorInput, name: "Coerced Plumbing", emergency_capable: "true" };
        const response = await post("/api/admin/v1/contractors", JSON.stringify(body), admin);
        assert.equal(response.status, 422);
        const list = await fetch(`${t.url}/api/admin/v1/contractors?limit=200`, { headers: admin });
        const names = ((await list.json()) as { items: { name: string }[] }).items.map((c) => c.name);
        assert.ok(!names.includes("Coerced Plumbing"));
      });

      it("still converts query strings (limit=5)", async () => {
        const response = await fetch(`${t.url}/api/dispatch/v1/orders?limit=5`, { headers: { "x-api-key": key } });
        assert.equal(response.status, 200);
      });
    });

    describe("callback_url is parsed at validation", () => {
      for (const url of unparsableUrls) {
        it(`answers ${url} with a field error on every surface, never a 500 or -32603`, async () => {
          const rest = await createOrder({ ...order, callback_url: url });
          assert.equal(rest.status, 422);
          assert.deepEqual(pointers(((await rest.json()) as { errors: unknown }).errors), ["/callback_url"]);
          const tool = await callTool("dispatch.order", { ...order, callback_url: url });
          assert.equal(tool.code, "validation_failed");
          assert.deepEqual(pointers(tool.errors), ["/callback_url"]);
          const skill = await askSkill("dispatch.order", { ...order, callback_url: url });
          assert.equal(skill.state, "TASK_STATE_FAILED");
          assert.deepEqual(pointers(skill.data?.errors), ["/callback_url"]);
        });
      }
    });

    describe("Idempotency-Key with another order's reference_id", () => {
      it("is 409 idempotency_conflict, not a replay of the reference_id's order", async () => {
        const first = { ...order, description: "First order.", reference_id: `ref-${randomUUID()}` };
        assert.equal((await createOrder(first)).status, 201);
        const keyed = { "idempotency-key": `key-${randomUUID()}` };
        assert.equal((await createOrder({ ...order, description: "Second order." }, keyed)).status, 201);
        const mixed = await createOrder(first, keyed);
        assert.equal(mixed.status, 409);
        assert.equal(((await mixed.json()) as { code: string }).code, "idempotency_conflict");
        const again = await createOrder(first); // the reference_id alone still replays its order
        assert.equal(again.headers.get("idempotent-replayed"), "true");
      });
    });

    describe("MCP JSON-RPC", () => {
      const mcp = (body: unknown, accept = mcpAccept) => rpc("/api/mcp", body, { accept });

      it("answers without the Accept both types need with the 406 the contract documents", async () => {
        const { status, body } = await mcp({ jsonrpc: "2.0", id: 1, method: "ping" }, "application/json");
        assert.equal(status, 406);
        const callMcp = listOperations(loadContract()).find((o) => o.operationId === "callMcp")!.operation;
        const documented = (callMcp.responses as Record<string, JsonObject | undefined>)["406"];
        assert.ok(documented, "callMcp documents no 406");
        assert.deepEqual(body, firstExample((documented.content as Record<string, JsonObject>)["application/json"]));
      });

      it("answers array params with -32602 and the request's id (a notification with 202)", async () => {
        const { status, body } = await mcp({ jsonrpc: "2.0", id: 9, method: "tools/list", params: [] });
        assert.deepEqual({ status, id: body.id, code: body.error?.code }, { status: 200, id: 9, code: -32602 });
        const note = await post("/api/mcp", '{"jsonrpc":"2.0","method":"notifications/initialized","params":[]}', {
          accept: mcpAccept,
        });
        assert.equal(note.status, 202);
        const batch = await mcp([{ jsonrpc: "2.0", id: 1, method: "ping", params: [] }]);
        assert.deepEqual({ status: batch.status, code: batch.body.error?.code }, { status: 400, code: -32600 });
      });

      for (const [name, body] of invalidRequests()) {
        it(`answers ${name} with 400 -32600 and id null`, async () => {
          const answer = await mcp(body);
          assert.deepEqual(
            { status: answer.status, id: answer.body.id, code: answer.body.error?.code },
            { status: 400, id: null, code: -32600 },
          );
        });
      }
    });

    describe("A2A JSON-RPC", () => {
      const a2a = (body: unknown) => rpc("/api/a2a", body);
      const nonObjects: [string, string][] = [
        ["null", "null"],
        ["[]", "[]"],
        ['"str"', '"str"'],
        ["1", "1"],
      ];
      for (const [name, body] of [...nonObjects, ...invalidRequests()]) {
        it(`answers ${name} with 400 -32600 and id null`, async () => {
          const answer = await a2a(body);
          assert.deepEqual(
            { status: answer.status, id: answer.body.id, code: answer.body.error?.code },
            { status: 400, id: null, code: -32600 },
          );
        });
      }

      it("answers array params with -32602 and the request's id", async () => {
        const { status, body } = await a2a({ jsonrpc: "2.0", id: 4, method: "GetTask", params: [] });
        assert.deepEqual({ status, id: body.id, code: body.error?.code }, { status: 200, id: 4, code: -32602 });
      });
    });

    describe("malformed path parameters", () => {
      const long = "x".repeat(300);
      const withPathParameters = listOperations(loadContract()).filter(({ path }) => path.includes("{"));
      for (const { operationId, method, path, operation } of withPathParameters)
        it(`${operationId} answers an over-long ${/\{(\w+)\}/.exec(path)![1]} with a status it documents`, async () => {
          const admin = path.startsWith("/api/admin/");
          const response = await fetch(`${t.url}${path.replace(/\{\w+\}/g, long)}`, {
            method: method.toUpperCase(),
            headers: {
              ...(admin ? { authorization: `Bearer ${adminToken}` } : { "x-api-key": everyScope }),
              ...(method === "get" || method === "delete" ? {} : { "content-type": "application/json" }),
            },
            ...(method === "get" || method === "delete" ? {} : { body: "{}" }),
          });
          const documented = Object.keys(operation.responses as JsonObject);
          assert.ok(documented.includes(String(response.status)), `${response.status} not in ${documented.join(" ")}`);
          assert.ok(response.status >= 400 && response.status < 500, String(response.status));
        });
    });

    describe("a ZIP in another state than the one given", () => {
      const elsewhere = { ...order, location: { state: "TX", zip: "10001" } }; // 10001 is Manhattan's
      const bothFields = ["/location/state", "/location/zip"];

      for (const [operation, path] of [
        ["createQuote", "/api/dispatch/v1/quote"],
        ["createEstimate", "/api/dispatch/v1/estimate"],
        ["createOrder", "/api/dispatch/v1/order"],
      ])
        it(`is 422 naming state and zip on ${operation}`, async () => {
          const { description: _description, ...estimated } = elsewhere; // an estimate takes no description
          const body = operation === "createEstimate" ? estimated : elsewhere;
          const response = await post(path, JSON.stringify(body), { "x-api-key": key });
          const problem = (await response.json()) as { errors: unknown; detail: string };
          assert.equal(response.status, 422, JSON.stringify(problem));
          assert.deepEqual(pointers(problem.errors), bothFields);
          assert.match(problem.detail, /10001 is in NY, not in the state TX/);
        });

      it("is a tool error naming both over MCP", async () => {
        const tool = await callTool("dispatch.quote", elsewhere);
        assert.equal(tool.isError, true);
        assert.deepEqual(pointers(tool.errors), bothFields);
      });

      it("still quotes a ZIP+4 in its state and a ZIP the dataset does not list", async () => {
        for (const location of [
          { state: "TX", zip: "78701-1234" },
          { state: "NY", zip: "10001" },
          { state: "TX", zip: "00000" },
        ]) {
          const response = await post("/api/dispatch/v1/quote", JSON.stringify({ ...order, location }), {
            "x-api-key": key,
          });
          assert.equal(response.status, 200, `${JSON.stringify(location)}: ${await response.text()}`);
        }
      });
    });

    describe("two credentials on one request", () => {
      const garbage = "Bearer not-a-token";
      /** [what, method, path, headers]: each request carries a working credential and a second one. */
      const requests = (): [string, string, string, Record<string, string>][] => [
        [
          "listOrders: a key and a garbage bearer",
          "GET",
          "/api/dispatch/v1/orders",
          { "x-api-key": key, authorization: garbage },
        ],
        [
          "createQuote: a key and a garbage bearer",
          "POST",
          "/api/dispatch/v1/quote",
          { "x-api-key": key, authorization: garbage },
        ],
        [
          "callMcp: a bearer key and a garbage x-api-key",
          "POST",
          "/api/mcp",
          { authorization: `Bearer ${key}`, "x-api-key": "x" },
        ],
        ["callA2a: a key and a garbage bearer", "POST", "/api/a2a", { "x-api-key": key, authorization: garbage }],
        [
          "listApiKeys: the admin token and a key",
          "GET",
          "/api/admin/v1/keys",
          { authorization: `Bearer ${adminToken}`, "x-api-key": key },
        ],
      ];
      const operationAt = (method: string, path: string) =>
        listOperations(loadContract()).find((o) => o.method === method.toLowerCase() && o.path === path)!;

      for (const [what, method, path, headers] of requests())
        it(`answers ${what} with the documented 400 two_credentials naming both`, async () => {
          const body = method === "POST" ? JSON.stringify(path === "/api/dispatch/v1/quote" ? order : {}) : undefined;
          const response = await fetch(`${t.url}${path}`, {
            method,
            headers: { ...headers, "content-type": "application/json", accept: mcpAccept },
            body,
          });
          const problem = (await response.json()) as { code: string; detail: string };
          assert.equal(response.status, 400, JSON.stringify(problem));
          assert.equal(problem.code, "two_credentials");
          assert.match(problem.detail, /x-api-key and Authorization/);
          const documented = (operationAt(method, path).operation.responses as Record<string, JsonObject>)["400"];
          assert.ok(documented, `${method} ${path} documents no 400`);
        });

      it("still answers one credential alone", async () => {
        const response = await fetch(`${t.url}/api/dispatch/v1/orders`, { headers: { "x-api-key": key } });
        assert.equal(response.status, 200);
      });
    });

    describe("the seal of verifySeal", () => {
      const verifySeal = listOperations(resolved).find((o) => o.operationId === "verifySeal")!;
      const responses = verifySeal.operation.responses as Record<string, JsonObject>;
      const documented = Object.keys(responses);
      const parameter = (verifySeal.operation.parameters as JsonObject[]).find((p) => p.name === "seal")!;
      const contractAccepts = ajv.compile(parameter.schema as JsonObject);
      const content400 = responses["400"].content as Record<string, { schema: JsonObject }>;
      const problem400 = ajv.compile(content400["application/problem+json"].schema);
      const verify = (seal: string) => fetch(`${t.url}/api/attest/verify/${encodeURIComponent(seal)}`);

      const malformed: [string, string][] = [
        ["seal_zz", "seal_zz"],
        ["upper-case hex digits", `seal_${"A".repeat(64)}`],
        ["one hex digit short", `seal_${"0".repeat(63)}`],
        ["a control character", "seal_\u0001"],
      ];
      for (const [what, seal] of malformed)
        it(`refuses ${what} in the contract and answers the documented 400 malformed_seal`, async () => {
          assert.equal(contractAccepts(seal), false);
          const response = await verify(seal);
          assert.equal(response.status, 400);
          const body = (await response.json()) as { code: string };
          assert.ok(problem400(body), JSON.stringify(problem400.errors));
          assert.equal(body.code, "malformed_seal");
        });

      it("admits a well-formed seal it never gave and answers it the documented 404", async () => {
        const unknown = `seal_${"0".repeat(64)}`;
        assert.equal(contractAccepts(unknown), true);
        const response = await verify(unknown);
        assert.equal(response.status, 404);
        assert.ok(documented.includes("404"));
      });
    });

    describe("POST /api/mcp/oauth/register", () => {
      it("answers the body null with 400 invalid_client_metadata, and no body with 201", async () => {
        const response = await post("/api/mcp/oauth/register", "null");
        assert.equal(response.status, 400);
        assert.equal(((await response.json()) as { error: string }).error, "invalid_client_metadata");
        const none = await fetch(`${t.url}/api/mcp/oauth/register`, { method: "POST" });
        assert.equal(none.status, 201);
      });
    });
  });
}

/** Objects that are not JSON-RPC 2.0 requests, by what is wrong with them. */
function invalidRequests(): [string, unknown][] {
  const ping = { jsonrpc: "2.0", id: 1, method: "ping", params: {} };
  const { jsonrpc: _jsonrpc, ...noVersion } = ping;
  const { method: _method, ...noMethod } = ping;
  return [
    ["a missing jsonrpc", noVersion],
    ["a missing method", noMethod],
    ["jsonrpc 1.0", { ...ping, jsonrpc: "1.0" }],
    ...[true, {}, [], 1.5].map((id): [string, unknown] => [`the id ${JSON.stringify(id)}`, { ...ping, id }]),
  ];
}
