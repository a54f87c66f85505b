// The SDK's credential header for EVERY operation of the generated table (sdk/generated/auth.ts): the client sends
// exactly the header of the first scheme it holds a credential for, the admin token only to AdminToken operations
// and the API key never to them. Table-driven over operationSchemes, so a new operation is covered without an edit.
import assert from "node:assert/strict";
import { createDispatchClient, type DispatchClientOptions } from "../../../sdk/index.js";
import { operationIds, operationSchemes, type SecurityScheme } from "../../../sdk/generated/auth.js";

type Credentials = Pick<DispatchClientOptions, "apiKey" | "accessToken" | "adminToken">;
interface Sent {
  "x-api-key": string | null;
  authorization: string | null;
}

const apiKey = "dispatch_test_key";
const accessToken = "dat_token";
const adminToken = "admin-secret";

/** Every combination of the three credentials (none, each alone, each pair, all three). */
const credentialSets: Credentials[] = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) => ({
  ...(bits & 1 ? { apiKey } : {}),
  ...(bits & 2 ? { accessToken } : {}),
  ...(bits & 4 ? { adminToken } : {}),
}));

const nothing: Sent = { "x-api-key": null, authorization: null };
const xApiKey = (value: string): Sent => ({ ...nothing, "x-api-key": value });
const bearer = (value: string): Sent => ({ ...nothing, authorization: `Bearer ${value}` });

/** What each scheme needs, written from the brief (not from sdk/auth.ts); undefined: the client holds none for it. */
const expectedFor: Record<SecurityScheme, (c: Credentials) => Sent | undefined> = {
  ApiKey: (c) => (c.apiKey ? xApiKey(c.apiKey) : undefined),
  OAuthToken: (c) => (c.accessToken ? bearer(c.accessToken) : undefined),
  McpBearerKey: (c) => (c.apiKey ? bearer(c.apiKey) : c.accessToken ? bearer(c.accessToken) : undefined),
  AdminToken: (c) => (c.adminToken ? bearer(c.adminToken) : undefined),
  OAuthClientBasic: () => undefined,
};

/** Public operations keep the SDK's earlier behaviour: the API key, else the access token, never the admin token. */
const publicExpected = (c: Credentials): Sent =>
  c.apiKey ? xApiKey(c.apiKey) : c.accessToken ? bearer(c.accessToken) : nothing;

function expected(schemes: readonly SecurityScheme[], c: Credentials): Sent {
  if (!schemes.length) return publicExpected(c);
  for (const scheme of schemes) {
    const sent = expectedFor[scheme](c);
    if (sent) return sent;
  }
  // A key-only operation with only an access token: the token goes, so the server can name the wrong credential.
  return schemes.includes("ApiKey") && c.accessToken ? bearer(c.accessToken) : nothing;
}

/** The client's `request(method, path, init)` without the typed paths: the table's keys are plain strings. */
type LooseRequest = (
  method: string,
  path: string,
  init: { params: { path: Record<string, string> }; headers?: Record<string, string> },
) => Promise<unknown>;

/** Sends `METHOD /path/{param}` through a client with these credentials; returns the request the fetch saw. */
async function send(route: string, credentials: Credentials, headers?: Record<string, string>): Promise<Request> {
  const [method, path] = route.split(" ");
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return Response.json({});
  };
  const client = createDispatchClient({ baseUrl: "http://dispatch.test", retry: false, fetch, ...credentials });
  const pathParams = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, "p1"]));
  await (client.request as unknown as LooseRequest)(method.toLowerCase(), path, {
    params: { path: pathParams },
    headers,
  });
  assert.equal(requests.length, 1, route);
  assert.doesNotMatch(requests[0].url, /\{|%7B/, `${route}: path parameters filled in`);
  return requests[0];
}

const sentOf = (request: Request): Sent => ({
  "x-api-key": request.headers.get("x-api-key"),
  authorization: request.headers.get("authorization"),
});

const describeCredentials = (c: Credentials) => Object.keys(c).join("+") || "no credential";

describe("sdk auth middleware (generated operationSchemes)", () => {
  const routes = Object.entries(operationSchemes);

  it("covers the contract: admin, keyed, MCP and public operations are all in the table", () => {
    const schemes = new Set(routes.flatMap(([, list]) => list));
    for (const scheme of ["ApiKey", "OAuthToken", "McpBearerKey", "AdminToken"] as const)
      assert.ok(schemes.has(scheme), scheme);
    assert.ok(
      routes.some(([, list]) => list.length === 0),
      "a public operation",
    );
  });

  for (const [route, schemes] of routes)
    it(`${route} [${schemes.join(", ") || "public"}] gets its first acceptable scheme's header`, async () => {
      for (const credentials of credentialSets) {
        const request = await send(route, credentials);
        const sent = sentOf(request);
        const context = `${route} with ${describeCredentials(credentials)}`;
        assert.deepEqual(sent, expected(schemes, credentials), context);
        const values: string[] = [];
        request.headers.forEach((value) => values.push(value));
        if (schemes.includes("AdminToken"))
          assert.ok(!values.some((value) => value.includes(apiKey)), `${context}: the API key reached an admin path`);
        else assert.ok(!values.some((value) => value.includes(adminToken)), `${context}: the admin token left admin`);
      }
    });

  it("treats an operation missing from the table like a public one", async () => {
    const route = "GET /not/in/the/contract";
    assert.equal(operationSchemes[route], undefined);
    for (const credentials of credentialSets)
      assert.deepEqual(sentOf(await send(route, credentials)), publicExpected(credentials), route);
  });

  it("leaves the caller's own Basic header to the token endpoint (OAuthClientBasic)", async () => {
    const route = Object.keys(operationIds).find(
      (key) => operationIds[key as keyof typeof operationIds] === "createOAuthToken",
    );
    assert.ok(route);
    const basic = `Basic ${Buffer.from("dcl_test:dcs_test").toString("base64")}`;
    const request = await send(route, { apiKey, accessToken, adminToken }, { authorization: basic });
    assert.deepEqual(sentOf(request), { "x-api-key": null, authorization: basic });
  });
});
