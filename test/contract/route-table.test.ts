// The server's route table is the contract's operation list: no route without an operation, and none missing.
import assert from "node:assert/strict";
import { listOperations, loadContract } from "../../scripts/contract.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

describe("route table", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  it("equals the contract's operations (method + path)", () => {
    const routes = t.app.server
      .table()
      .map((r) => `${r.method.toUpperCase()} ${r.path}`)
      .sort();
    const operations = listOperations(loadContract())
      .map((o) => `${o.method.toUpperCase()} ${o.path}`)
      .sort();
    assert.deepEqual(routes, operations);
  });
});
