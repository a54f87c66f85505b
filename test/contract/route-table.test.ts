// The server's route table is the contract's operation list, keyed by operationId: no route without an operation,
// none missing, and each route's method, path, tags and authentication are its operation's (the access check then
// finds the operation's scopes by the route's id; test/integration/tenancy.test.ts refuses each scope's absence).
import assert from "node:assert/strict";
import type { RequestRoute } from "@hapi/hapi";
import { listOperations, loadContract } from "../../scripts/contract.js";
import { operations, type Operation } from "../../server/generated/operations.js";
import { accessOfOperation } from "../../server/services/access/operation-access.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** The contract's security schemes each server strategy checks (plugins/auth.ts); `a2a` reads a key or a token. */
const schemesOfStrategy: Record<string, string[]> = {
  "api-key": ["ApiKey"],
  "oauth-token": ["OAuthToken"],
  admin: ["AdminToken"],
  mcp: ["McpBearerKey"],
  a2a: ["ApiKey", "OAuthToken"],
};

/** The schemes a route's auth accepts (OAuthClientBasic is checked by the token endpoint's handler), and whether
 * a caller without a credential gets through. */
function authOfRoute(route: RequestRoute): { schemes: string[]; anonymous: boolean } {
  const auth = route.settings.auth as { strategies?: string[]; mode?: string } | false | undefined;
  if (!auth) return { schemes: [], anonymous: true };
  const schemes = (auth.strategies ?? []).flatMap((strategy) => schemesOfStrategy[strategy] ?? [strategy]);
  return { schemes: schemes.sort(), anonymous: auth.mode === "optional" };
}

function authOfOperation(operation: Operation): { schemes: string[]; anonymous: boolean } {
  const schemes = Object.keys(operation.schemes).filter((scheme) => scheme !== "OAuthClientBasic");
  return { schemes: schemes.sort(), anonymous: operation.anonymous };
}

describe("route table", () => {
  let t: TestServer;
  let routes: RequestRoute[];
  before(async () => {
    t = await startTestServer(undefined, {}, { inject: true });
    routes = t.app.server.table();
  });
  after(async () => t?.stop());

  it("equals the contract's operations with a 2xx answer (method + path)", () => {
    // Operations documented only for their 405 (GET/DELETE /api/mcp) are answered by the generic wrong-method
    // handling, not by a route; the protocol suite pins those 405s.
    const documented = listOperations(loadContract())
      .filter((o) => Object.keys(o.operation.responses as object).some((code) => code.startsWith("2")))
      .map((o) => `${o.method.toUpperCase()} ${o.path}`)
      .sort();
    assert.deepEqual(routes.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort(), documented);
  });

  it("names every route by its operationId, with that operation's method, path and tags", () => {
    for (const route of routes) {
      const id = route.settings.id ?? "";
      assert.ok(Object.hasOwn(operations, id), `${route.method} ${route.path}: id ${id} is no operationId`);
      const operation = operations[id as keyof typeof operations];
      assert.equal(`${route.method.toUpperCase()} ${route.path}`, `${operation.method} ${operation.path}`, id);
      assert.deepEqual(route.settings.tags, operation.tags, id);
      assert.ok(accessOfOperation(id), `${id}: the access check finds its requirement`);
    }
  });

  it("authenticates every route with its operation's security schemes, optional where anonymous calls are", () => {
    for (const route of routes) {
      const operation = operations[route.settings.id as keyof typeof operations];
      assert.deepEqual(authOfRoute(route), authOfOperation(operation), route.settings.id);
    }
  });
});
