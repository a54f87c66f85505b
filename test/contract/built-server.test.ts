// Contract tests generated from openapi.yaml against the BUILT server (`node server/dist/server/main.js`, what
// `npm start` and the `dispatch-server` bin run), on pglite://memory and a free loopback port.
//
// Why not Portman + Newman: @apideck/portman 1.33.0 with newman 6.2.2 took 116 s and 137 MB (310 packages) to
// install here, and `portman` then stopped at once with "Cannot find module 'tslib'" (an undeclared dependency).
// What Portman adds over our hand-written *-contract-proxy suites is generation: every operation called from the
// contract's own examples, with status and schema checked, plus negative variations derived from the schemas'
// bounds. test/helpers/contract-cases.ts generates both, and Prism (already a dev dependency) in proxy mode
// without `--errors` checks every answer against the contract: it forwards the invalid requests too (so the
// negative cases reach the server) and lists each violation in `sl-violations`, request-side ones (expected for
// negative cases) apart from response-side ones (never allowed).
import assert from "node:assert/strict";
import { loadResolvedContract, type JsonObject } from "../../scripts/contract.js";
import { startPrism, type PrismHandle } from "../../mocks/prism.js";
import { negativeCases, positiveCases, type ContractCase } from "../helpers/contract-cases.js";
import { adminToken } from "../helpers/server.js";
import { contractorInput } from "../fixtures/requests.js";
import { ensureFreshBuild, spawnServer, type ServerProcess } from "../helpers/server-process.js";

interface Violation {
  location: string[];
  message: string;
}

/** A key of a contractor made for the run: the contractor operations' cases reach their validation with it. */
async function issueContractorKey(base: string): Promise<string> {
  const headers = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
  const created = await fetch(`${base}/api/admin/v1/contractors`, {
    method: "POST",
    headers,
    body: JSON.stringify(contractorInput),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  const issued = await fetch(`${base}/api/admin/v1/contractors/${id}/keys`, {
    method: "POST",
    headers,
    body: JSON.stringify({ environment: "test" }),
  });
  assert.equal(issued.status, 201, await issued.clone().text());
  return ((await issued.json()) as { key: string }).key;
}

describe("the built server against generated contract tests", function () {
  this.timeout(300_000);
  let server: ServerProcess;
  let prism: PrismHandle;
  let doc: JsonObject;
  let apiKey: string;
  let contractorKey: string;
  let sent = 0;

  before(async () => {
    await ensureFreshBuild();
    server = spawnServer(
      {
        DATABASE_URL: "pglite://memory",
        DISPATCH_ADMIN_TOKEN: adminToken,
        RATE_LIMIT_POINTS: "100000", // hundreds of generated requests in a minute from one key
        TRUSTED_PROXIES: "127.0.0.1", // each case comes from its own X-Forwarded-For address (per-address limits)
      },
      undefined,
      ["server/dist/server/main.js"],
    );
    const base = (await server.waitFor(/dispatch listening on http:\/\/[\d.]+:\d+/)).replace(
      "dispatch listening on ",
      "",
    );
    doc = await loadResolvedContract();
    // every customer scope (the contractor scopes are for contractor keys only: their operations answer it 403)
    const request = ((doc.components as JsonObject).schemas as Record<string, JsonObject>).ApiKeyCreateRequest;
    const scopes = ((request.properties as JsonObject).scopes as JsonObject)["x-default"];
    const issued = await fetch(`${base}/api/admin/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ account: "contract", environment: "test", scopes }),
    });
    assert.equal(issued.status, 201, await issued.clone().text());
    apiKey = ((await issued.json()) as { key: string }).key;
    contractorKey = await issueContractorKey(base);
    prism = await startPrism({ mode: "proxy", upstream: base, errors: false });
  });
  after(async () => {
    await prism?.stop();
    server?.child.kill("SIGTERM");
    if (server) assert.equal(await server.exited, 0, server.output());
  });

  /** Sends one case through Prism; its status and the violations Prism found, by side. */
  async function send(c: ContractCase) {
    sent += 1;
    const response = await fetch(`${prism.url}${c.url}`, {
      method: c.method,
      headers: { ...c.headers, "x-forwarded-for": `198.18.${sent >> 8}.${sent & 255}` },
      body: c.body,
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    const violations = JSON.parse(response.headers.get("sl-violations") ?? "[]") as Violation[];
    const side = (name: string) => violations.filter((v) => v.location[0] === name);
    return { status: response.status, request: side("request"), response: side("response") };
  }

  it("answers every operation's example with a documented status and body, never a 5xx", async () => {
    const failures: string[] = [];
    const cases = positiveCases(doc, { apiKey, adminToken, contractorKey });
    for (const c of cases) {
      const { status, request, response } = await send(c);
      const problems = [...request, ...response].map((v) => `${v.location.join(".")}: ${v.message}`);
      if (status >= 500) problems.push(`status ${status}`);
      if (problems.length) failures.push(`${c.name} (${status}): ${problems.join("; ")}`);
    }
    assert.deepEqual(failures, [], failures.join("\n"));
    const methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];
    const operations = Object.values(doc.paths as Record<string, JsonObject>).flatMap((item) =>
      methods.filter((method) => method in item),
    );
    assert.equal(cases.length, operations.length, "one case per operation");
  });

  it("refuses each input outside the contract's bounds with its documented 400 or 422 and a conforming body", async () => {
    const failures: string[] = [];
    const cases = negativeCases(doc, { apiKey, adminToken, contractorKey });
    for (const c of cases) {
      const { status, request, response } = await send(c);
      const problems = response.map((v) => `${v.location.join(".")}: ${v.message}`);
      if (!request.length) problems.push("the generated case is valid by the contract: fix the generator");
      if (!c.refusedWith!.includes(status)) problems.push(`status ${status}, not ${c.refusedWith!.join(" or ")}`);
      if (problems.length) failures.push(`${c.name}: ${problems.join("; ")}`);
    }
    assert.deepEqual(failures, [], failures.join("\n"));
    assert.ok(cases.length > 200, `${cases.length} negative cases`);
  });
});
