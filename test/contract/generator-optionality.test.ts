// Integrators generate types from openapi.yaml with their generator's DEFAULT options; a request field the server
// defaults (urgency → routine) must come out optional, so a quote without urgency compiles under strict.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createClient } from "@hey-api/openapi-ts";
import openapiTS, { astToString } from "openapi-typescript";
import { adminToken, startTestServer, type TestServer } from "../helpers/server.js";
import { withoutCoverage } from "../helpers/coverage-env.js";
import { jsonRequest } from "../helpers/request.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const workDir = `${root}test/tmp/generator-optionality-${process.pid}`;
const tsc = `${root}node_modules/typescript/bin/tsc`;
const strict = { strict: true, noEmit: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext" };

/** Type-checks `files` in a fresh directory; answers tsc's complaints ("" when it compiles). */
async function compile(dir: string, files: Record<string, string>): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(`${dir}/${name}`, text);
  const config = {
    compilerOptions: { ...strict, lib: ["ES2023", "DOM", "DOM.Iterable"], types: [], skipLibCheck: true },
  };
  await writeFile(`${dir}/tsconfig.json`, JSON.stringify(config));
  await writeFile(`${dir}/package.json`, JSON.stringify({ type: "module" }));
  const result = await promisify(execFile)(process.execPath, [tsc, "-p", dir], { env: withoutCoverage() }).catch(
    (error: unknown) => error as { stdout: string },
  );
  return result.stdout;
}

describe("generated request types (generators' default options)", function () {
  this.timeout(180_000);
  before(async () => rm(workDir, { recursive: true, force: true }));
  after(async () => rm(workDir, { recursive: true, force: true }));

  it("openapi-typescript: requests without the server-defaulted fields compile", async () => {
    const types = astToString(await openapiTS(pathToFileURL(`${root}openapi.yaml`)));
    const snippet = `import type { components } from "./openapi.js";
type S = components["schemas"];
export const quote: S["QuoteRequest"] = { trade: "plumbing", location: { state: "TX" } };
export const estimate: S["EstimateRequest"] = { trade: "hvac", location: { state: "CA" } };
export const order: S["OrderRequest"] = { trade: "plumbing", location: { state: "TX" }, description: "Leak." };
export const event: S["OrderEventInput"] = { status: "dispatched" };
// Answers still say what the server chose: urgency is always present in a quote.
export const urgency: S["Quote"]["urgency"] = "routine";
`;
    assert.equal(await compile(`${workDir}/openapi-typescript`, { "openapi.d.ts": types, "app.ts": snippet }), "");
  });

  it("@hey-api/openapi-ts: requests without the server-defaulted fields compile", async () => {
    const dir = `${workDir}/hey-api`;
    await createClient({
      input: `${root}openapi.yaml`,
      output: { path: `${dir}/client` },
      logs: { level: "silent" },
    });
    const snippet = `import type { QuoteRequest, EstimateRequest, OrderRequest, OrderEventInput } from "./client/types.gen.js";
export const quote: QuoteRequest = { trade: "plumbing", location: { state: "TX" } };
export const estimate: EstimateRequest = { trade: "hvac", location: { state: "CA" } };
export const order: OrderRequest = { trade: "plumbing", location: { state: "TX" }, description: "Leak." };
export const event: OrderEventInput = { status: "dispatched" };
`;
    assert.equal(await compile(dir, { "app.ts": snippet }), "");
  });

  describe("the server still applies the defaults (x-default)", () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer();
    });
    after(() => t?.stop());

    const post = async (path: string, body: unknown, headers: Record<string, string>) =>
      (await (await jsonRequest(t.url, "POST", path, { headers, body })).json()) as Record<string, unknown>;

    it("urgency routine for quotes and estimates, every scope for keys, active for contractors", async () => {
      const admin = { authorization: `Bearer ${adminToken}` };
      const key = await post("/api/admin/v1/keys", { account: "acme", environment: "test" }, admin);
      assert.deepEqual(key.scopes, ["quote", "order", "orders:read", "webhooks", "audit"]);
      const quote = await post(
        "/api/dispatch/v1/quote",
        { trade: "plumbing", location: { state: "TX" } },
        {
          "x-api-key": key.key as string,
        },
      );
      assert.equal(quote.urgency, "routine");
      const estimate = await post("/api/dispatch/v1/estimate", { trade: "hvac", location: { state: "CA" } }, {});
      assert.equal(estimate.urgency, "routine");
      const contractor = await post(
        "/api/admin/v1/contractors",
        {
          name: "Defaults Co.",
          trades: ["hvac"],
          service_areas: [{ state: "CA" }],
          hourly_rate_cents: 9000,
          base_response_minutes: 60,
        },
        admin,
      );
      assert.equal(contractor.active, true);
      assert.equal(contractor.emergency_capable, false);
      // Availability defaults (x-default), and the zone the server derives from the first service area's state.
      assert.deepEqual(contractor.capacity, { concurrent_jobs: 100, jobs_per_day: 1000 });
      assert.deepEqual((contractor.working_hours as Record<string, unknown>).sunday, [
        { start: "00:00", end: "24:00" },
      ]);
      assert.equal(contractor.time_zone, "America/Los_Angeles");
    });
  });
});
