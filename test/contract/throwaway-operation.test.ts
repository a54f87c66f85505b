// Adding an operation is editing openapi.yaml and writing one handler (issue #32). This suite adds a throwaway
// operation (`GET /api/dispatch/v1/ping-{name}`, operationId pingThrowaway, ApiKey scope `audit`, a bounded path
// and query parameter) to a COPY of the contract, runs the real generators on the copy (scripts/operation-table.ts,
// scripts/joi-validators.ts, openapi-typescript) into a temp directory, and registers ONE handler for it on the real
// server (real auth, access, error and rate-limit plugins) with routeOfOperation, the function operationRoute is
// built on. It then shows that the operation is:
// - served: 200 with the handler's body, at the contract's method and path;
// - validated: 422 for a path or query parameter outside the contract's bounds, and the query default applied,
//   all from the generated validators;
// - scoped: 401 without a key, 403 insufficient_scope for a key without `audit`, from the generated table's
//   requirement, which the route carries to the access check;
// - typed: a handler written against the copy's generated types compiles, and one whose body the contract does not
//   allow fails tsc. (In the tree, `npm run generate` writes those types into sdk/generated/openapi.d.ts, which
//   OperationHandle/ContractInput in server/types read; the check here runs tsc on the copy's types alone.)
// Nothing else is edited: no route file, no access list, no validator by hand.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { RouteOptionsValidate } from "@hapi/hapi";
import openapiTS, { astToString } from "openapi-typescript";
import { parse, stringify } from "yaml";
import { contractPath, loadResolvedContract, type JsonObject } from "../../scripts/contract.js";
import { renderValidators } from "../../scripts/joi-validators.js";
import { renderOperationTable } from "../../scripts/operation-table.js";
import type { Operation } from "../../server/generated/operations.js";
import { routeOfOperation } from "../../server/routes/operation-route.js";
import type { AnyOperationHandle } from "../../server/services/operation-handler.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { withoutCoverage } from "../helpers/coverage-env.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The one contract edit: a path with its operation, as a contributor would write it in openapi.yaml. */
const throwawayPath = {
  get: {
    operationId: "pingThrowaway",
    tags: ["audit"],
    summary: "Throwaway ping (test only)",
    security: [{ ApiKey: ["audit"] }],
    parameters: [
      {
        name: "name",
        in: "path",
        required: true,
        schema: { type: "string", minLength: 1, maxLength: 12, pattern: "^[a-z]+$" },
      },
      { name: "times", in: "query", schema: { type: "integer", minimum: 1, maximum: 3, default: 1 } },
    ],
    responses: {
      "200": {
        description: "The pong.",
        content: {
          "application/json": {
            schema: {
              type: "object",
              additionalProperties: false,
              required: ["pong", "times"],
              properties: { pong: { type: "string", maxLength: 40 }, times: { type: "integer" } },
            },
          },
        },
      },
    },
  },
};

/** The one handler: contract-typed input in, status and body out (services/operation-handler.ts). */
const handle: AnyOperationHandle = (input, context) => {
  const { params, query } = input as { params: { name: string }; query: { times: number } };
  return Promise.resolve({
    status: 200,
    body: { pong: params.name.repeat(query.times), times: query.times },
    headers: { "x-caller": context.caller?.id ?? "none" },
  });
};

/** A handler written against the copy's generated types; `wrong` answers a body the contract does not allow. */
const typedHandler = `import type { operations } from "./openapi.js";
type Op = operations["pingThrowaway"];
type Input = { params: Op["parameters"]["path"]; query: NonNullable<Op["parameters"]["query"]> };
type Reply = { status: 200; body: Op["responses"][200]["content"]["application/json"] };
export const handle = (input: Input): Reply => ({ status: 200, body: { pong: input.params.name, times: 1 } });
export const wrong = (input: Input): Reply => ({ status: 200, body: { pong: input.params.name, times: "1" } });
`;

interface Generated {
  operations: Record<string, Operation>;
  validators: Record<string, RouteOptionsValidate>;
}

describe("a throwaway operation added to a copy of the contract", function () {
  this.timeout(120_000);
  let dir: string;
  let generated: Generated;
  let t: TestServer;
  let keyWithScope: string;
  let keyWithout: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "dispatch-throwaway-"));
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules")); // the generated validators import joi
    const copy = parse(readFileSync(contractPath, "utf8")) as JsonObject;
    (copy.paths as JsonObject)["/api/dispatch/v1/ping-{name}"] = throwawayPath;
    const copyPath = join(dir, "openapi.yaml");
    writeFileSync(copyPath, stringify(copy));
    const doc = await loadResolvedContract(copyPath);
    writeFileSync(join(dir, "operations.ts"), renderOperationTable(doc));
    writeFileSync(join(dir, "validators.ts"), renderValidators(doc));
    const ast = await openapiTS(pathToFileURL(copyPath), { alphabetize: false, exportType: false });
    writeFileSync(join(dir, "openapi.d.ts"), astToString(ast));
    const [table, joi] = await Promise.all([
      import(pathToFileURL(join(dir, "operations.ts")).href) as Promise<Pick<Generated, "operations">>,
      import(pathToFileURL(join(dir, "validators.ts")).href) as Promise<Pick<Generated, "validators">>,
    ]);
    generated = { ...table, ...joi };

    t = await startTestServer(undefined, {}, { inject: true });
    const id = "pingThrowaway";
    t.app.server.route(routeOfOperation(id, generated.operations[id], generated.validators[id], { handle }));
    keyWithScope = (await t.issueKey({ scopes: ["audit"] })).key;
    keyWithout = (await t.issueKey({ scopes: ["quote"] })).key;
  });
  after(async () => {
    await t?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const ping = (path: string, key?: string) =>
    t.fetch(`${t.url}/api/dispatch/v1/${path}`, { headers: key ? { "x-api-key": key } : {} });

  it("is in the generated table with the contract's method, path and requirement", () => {
    const operation = generated.operations.pingThrowaway;
    assert.deepEqual(
      { method: operation.method, path: operation.path, schemes: operation.schemes, anonymous: operation.anonymous },
      { method: "GET", path: "/api/dispatch/v1/ping-{name}", schemes: { ApiKey: ["audit"] }, anonymous: false },
    );
  });

  it("is served: 200 with the handler's body and headers, the query default applied", async () => {
    const res = await ping("ping-abc?times=2", keyWithScope);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { pong: "abcabc", times: 2 });
    assert.match(res.headers.get("x-caller") ?? "", /^key_/);
    const defaulted = await ping("ping-abc", keyWithScope);
    assert.deepEqual(await defaulted.json(), { pong: "abc", times: 1 });
  });

  it("is validated: 422 for a path or query parameter outside the contract's bounds", async () => {
    for (const path of ["ping-ABC", "ping-abcdefghijklm", "ping-abc?times=4", "ping-abc?times=x", "ping-abc?other=1"]) {
      const res = await ping(path, keyWithScope);
      assert.equal(res.status, 422, path);
      assert.equal(((await res.json()) as { code: string }).code, "validation_failed", path);
    }
  });

  it("is scoped: 401 without a key, 403 insufficient_scope for a key without the operation's scope", async () => {
    const anonymous = await ping("ping-abc");
    assert.equal(anonymous.status, 401);
    const unscoped = await ping("ping-abc", keyWithout);
    assert.equal(unscoped.status, 403);
    const body = (await unscoped.json()) as { code: string; detail: string };
    assert.equal(body.code, "insufficient_scope");
    assert.match(body.detail, /audit scope that pingThrowaway needs/);
    assert.match(unscoped.headers.get("www-authenticate") ?? "", /insufficient_scope/);
  });

  it("is typed: a handler against the copy's generated types compiles; a body the contract forbids does not", () => {
    writeFileSync(join(dir, "handler.ts"), typedHandler);
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const args = ["--noEmit", "--strict", "--module", "nodenext", "--target", "es2022", join(dir, "handler.ts")];
    let output = "";
    try {
      execFileSync(process.execPath, [tsc, ...args], { encoding: "utf8", env: withoutCoverage() });
    } catch (error) {
      output = (error as { stdout: string }).stdout;
    }
    const errors = output.split("\n").filter((line) => line.includes("error TS"));
    assert.equal(errors.length, 1, output);
    assert.match(errors[0], /handler\.ts\(6,/, output); // `wrong` only: times is an integer, not a string
  });
});
