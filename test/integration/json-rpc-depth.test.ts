// JSON-RPC bodies nested deeper than 64 levels are refused (-32600, HTTP 400) on both surfaces before an SDK walks
// them: a 10,000-deep value used to end in -32603 "Maximum call stack size exceeded".
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** `levels` nested arrays around 1 (`[[…[1]…]]`), as JSON text. */
const nested = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;

const mcpCall = (value: string) =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dispatch.evals","arguments":{},"_meta":{"deep":${value}}}}`;
const a2aSend = (value: string) =>
  `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER",` +
  `"parts":[{"data":{"skill":"dispatch.evals","input":{}}}],"metadata":{"deep":${value}}}}}`;

const surfaces = [
  { name: "MCP", path: "/api/mcp", body: mcpCall, accept: "application/json, text/event-stream" },
  { name: "A2A", path: "/api/a2a", body: a2aSend, accept: "application/json" },
];

describe("JSON-RPC nesting depth", function () {
  this.timeout(60_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t?.stop());

  const post = (path: string, accept: string, body: string) =>
    fetch(`${t.url}${path}`, { method: "POST", headers: { "content-type": "application/json", accept }, body });

  for (const surface of surfaces) {
    describe(`POST ${surface.path}`, () => {
      it(`answers a 10,000-deep ${surface.name} body with -32600 Invalid Request (HTTP 400)`, async () => {
        const response = await post(surface.path, surface.accept, surface.body(nested(10_000)));
        assert.equal(response.status, 400);
        const body = (await response.json()) as { id: unknown; error: { code: number; message: string } };
        assert.equal(body.error.code, -32600);
        assert.match(body.error.message, /nested deeper than 64 levels/);
        assert.equal(body.id, null);
      });

      it("refuses one level past the bound and serves a body at it", async () => {
        // The objects around the nested arrays take 3 levels (MCP: body, params, _meta) or 4 (A2A: body, params,
        // message, metadata).
        const wrapper = surface.name === "MCP" ? 3 : 4;
        const over = await post(surface.path, surface.accept, surface.body(nested(65 - wrapper)));
        assert.equal(over.status, 400);
        const within = await post(surface.path, surface.accept, surface.body(nested(64 - wrapper)));
        assert.equal(within.status, 200);
        const answer = (await within.json()) as { error?: unknown; result?: unknown };
        assert.ok(answer.result !== undefined, JSON.stringify(answer).slice(0, 300));
      });
    });
  }
});
