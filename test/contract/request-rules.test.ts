// Rules the server enforces are in the contract's schemas, so a validator built from openapi.yaml (any language's;
// ajv here) refuses what the server answers 422, and typed clients generated from it cannot build the request:
// which JobStatusReport field goes with which status, advanceSandboxClock's `by` or `to`, a customer key's scopes,
// a customer's cancel reasons.
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { listOperations, loadResolvedContract, type JsonObject } from "../../scripts/contract.js";
import { validators } from "../../server/generated/validators.js";
import type { Schema } from "joi";
import type { components } from "../../sdk/generated/openapi.js";

const doc = await loadResolvedContract();
const ajv = new Ajv2020({ strict: false });
formats.default(ajv);
const bodyOf = (operationId: string) => {
  const { operation } = listOperations(doc).find((o) => o.operationId === operationId)!;
  const content = (operation.requestBody as JsonObject).content as Record<string, { schema: JsonObject }>;
  return ajv.compile(content["application/json"].schema);
};

/** The generated joi, by operationId: each operation's body validator. */
const payloads: Partial<Record<string, { payload?: Schema; query?: Schema; params?: Schema }>> = validators;

const eta = "2026-11-24T09:30:00Z";
/** [operationId, body, accepted, the field the server's 422 names (refused bodies)] */
const cases: [string, unknown, boolean, string?][] = [
  ["updateJobStatus", { status: "en_route", estimated_arrival_at: eta }, true],
  ["updateJobStatus", { status: "on_site", note: "At the door." }, true],
  ["updateJobStatus", { status: "completed", final_cost_cents: 18_000 }, true],
  ["updateJobStatus", { status: "unable_to_attend", reason: "emergency" }, true],
  ["updateJobStatus", { status: "en_route" }, false, "estimated_arrival_at"],
  ["updateJobStatus", { status: "completed" }, false, "final_cost_cents"],
  ["updateJobStatus", { status: "unable_to_attend" }, false, "reason"],
  ["updateJobStatus", { status: "on_site", estimated_arrival_at: eta }, false, "estimated_arrival_at"],
  ["updateJobStatus", { status: "completed", final_cost_cents: 1, reason: "other" }, false, "reason"],
  ["updateJobStatus", { status: "arrived" }, false, "status"],
  ["advanceSandboxClock", { by: "1h" }, true],
  ["advanceSandboxClock", { to: "next_step" }, true],
  ["advanceSandboxClock", { by: "1h", to: "next_step" }, false, ""],
  ["advanceSandboxClock", {}, false, ""],
  ["createApiKey", { account: "acme", environment: "test", scopes: ["quote", "orders:read"] }, true],
  ["createApiKey", { account: "acme", environment: "test", scopes: ["quote", "contractor:offers"] }, false, "scopes/1"],
  ["cancelOrder", { reason: "duplicate", note: "Raised twice." }, true],
  ["cancelOrder", { reason: "operator_decision" }, false, "reason"],
];

describe("rules of the requests, in the contract", () => {
  for (const [operationId, body, accepted, field] of cases)
    describe(`${operationId} ${JSON.stringify(body)}`, () => {
      it(`is ${accepted ? "accepted" : "refused"} by the contract's schema`, () => {
        assert.equal(bodyOf(operationId)(body), accepted);
      });

      it(`is ${accepted ? "accepted" : `refused naming ${field || "the body"}`} by the server's generated validator`, () => {
        const payload = payloads[operationId]!.payload!;
        const { error } = payload.validate(body, { abortEarly: false });
        assert.equal(error === undefined, accepted);
        if (!accepted)
          assert.deepEqual(
            error!.details.map((d) => d.path.join("/")),
            [field],
          );
      });
    });

  it("gives typed clients one shape per status, customer scopes and customer cancel reasons only (a compile error otherwise)", () => {
    type Report = components["schemas"]["JobStatusReport"];
    type Advance = components["schemas"]["SandboxClockAdvanceRequest"];
    // @ts-expect-error en_route without its estimated_arrival_at
    const missing: Report = { status: "en_route" };
    // @ts-expect-error a final cost on an on-site report
    const misplaced: Report = { status: "on_site", final_cost_cents: 1 };
    // An untagged union: TypeScript's excess-property check lets `{ by, to }` through; the schema refuses it.
    const either: Advance[] = [{ by: "1h" }, { to: "next_step" }];
    // @ts-expect-error a contractor scope on a customer key
    const scope: components["schemas"]["ApiKeyCreateRequest"]["scopes"] = ["contractor:offers"];
    // @ts-expect-error the operators' cancel reason on a customer's cancel
    const cancel: components["schemas"]["CancelRequest"] = { reason: "operator_decision" };
    assert.ok([missing, misplaced, either, scope, cancel].every(Boolean));
  });
});
