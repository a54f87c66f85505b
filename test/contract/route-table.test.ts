// The server's route table is the contract's operation list: no route without an operation, and none missing.
import assert from "node:assert/strict";
import { listOperations, loadContract } from "../../scripts/contract.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

describe("route table", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer(undefined, {}, { inject: true });
  });
  after(async () => t?.stop());

  it("equals the contract's operations with a 2xx answer (method + path)", () => {
    const routes = t.app.server
      .table()
      .map((r) => `${r.method.toUpperCase()} ${r.path}`)
      .sort();
    // Operations documented only for their 405 (GET/DELETE /api/mcp) are answered by the generic wrong-method
    // handling, not by a route; the protocol suite pins those 405s.
    const operations = listOperations(loadContract())
      .filter((o) => Object.keys(o.operation.responses as object).some((code) => code.startsWith("2")))
      .map((o) => `${o.method.toUpperCase()} ${o.path}`)
      .sort();
    assert.deepEqual(routes, operations);
  });
});
