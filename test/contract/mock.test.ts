// Every operation of openapi.yaml, every documented response, through the SDK against the Prism mock.
import assert from "node:assert/strict";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import { createDispatchClient, type DispatchClient } from "../../sdk/index.js";
import { contractOperations, responseCodes, responseExample } from "../helpers/contract-examples.js";
import { operationCalls } from "./operations.js";

describe("contract: Prism mock", function () {
  this.timeout(120_000);
  let prism: PrismHandle;
  let client: DispatchClient;

  before(async () => {
    prism = await startPrism({ mode: "mock" });
    client = createDispatchClient({
      baseUrl: prism.url,
      apiKey: "dispatch_test_contract",
      adminToken: "admin-contract",
      retry: false,
    });
  });
  after(async () => prism?.stop());

  it("has a typed SDK call for every operation of the contract", () => {
    assert.deepEqual(Object.keys(operationCalls).sort(), contractOperations.map((o) => o.operationId).sort());
  });

  for (const { operationId } of contractOperations) {
    describe(operationId, () => {
      it("documents a default problem response", () => {
        assert.ok(responseCodes(operationId).includes("default"));
      });
      for (const code of responseCodes(operationId)) {
        it(`answers ${code} with the contract's example`, async () => {
          const call = operationCalls[operationId as keyof typeof operationCalls];
          // The `default` response stands for any undocumented status; Prism answers it for one, e.g. 500.
          const status = code === "default" ? 500 : Number(code);
          const { data, error, response } = await call(client, { prefer: `code=${status}` });
          assert.equal(response.status, status, `sl-violations: ${response.headers.get("sl-violations")}`);
          assert.equal(response.headers.get("sl-violations"), null);
          assert.deepEqual(data ?? error ?? null, responseExample(operationId, code));
        });
      }
    });
  }
});
