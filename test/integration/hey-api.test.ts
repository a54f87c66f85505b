// An integrator's view: generate a client from openapi.yaml with @hey-api/openapi-ts, compile it with tsc,
// and call both the Prism mock and the real server through it.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createClient } from "@hey-api/openapi-ts";
import { startTestServer } from "../helpers/server.js";
import { withoutCoverage } from "../helpers/coverage-env.js";
import { startPrism } from "../../mocks/prism.js";
import { responseExample } from "../helpers/contract-examples.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const workDir = `${root}test/tmp/hey-api-${process.pid}`;

const tsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2023", "DOM", "DOM.Iterable"],
    strict: true,
    skipLibCheck: true,
    types: [],
    outDir: "dist",
  },
  include: ["client"],
};

/** The compiled client's surface this test uses. */
interface GeneratedClient {
  client: { setConfig(config: { baseUrl: string }): void };
  getTradeIndex(): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  createEstimate(options: { body: unknown }): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  createQuote(options: {
    body: unknown;
    headers: Record<string, string>;
  }): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}

async function generateAndCompile(): Promise<GeneratedClient> {
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  await createClient({
    input: `${root}openapi.yaml`,
    output: { path: `${workDir}/client` },
    plugins: ["@hey-api/typescript", "@hey-api/sdk", "@hey-api/client-fetch"],
    logs: { level: "silent" },
  });
  await writeFile(`${workDir}/tsconfig.json`, JSON.stringify(tsconfig));
  await writeFile(`${workDir}/package.json`, JSON.stringify({ type: "module" }));
  await promisify(execFile)(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", workDir], {
    env: withoutCoverage(),
  });
  const sdk = await import(pathToFileURL(`${workDir}/dist/index.js`).href);
  const { client } = await import(pathToFileURL(`${workDir}/dist/client.gen.js`).href);
  return { ...sdk, client } as GeneratedClient;
}

interface Target {
  name: string;
  start(): Promise<{ url: string; stop(): Promise<void>; apiKey?: string }>;
  /** The mock answers the contract's examples; the real server answers real data. */
  examples: boolean;
}

const targets: Target[] = [
  { name: "Prism mock", start: () => startPrism({ mode: "mock" }), examples: true },
  {
    name: "real server",
    examples: false,
    async start() {
      const t = await startTestServer();
      const { key } = await t.issueKey({ account: "hey-api" });
      return { url: t.url, stop: () => t.stop(), apiKey: key };
    },
  },
];

describe("integration: @hey-api/openapi-ts client", function () {
  this.timeout(120_000);
  let generated: GeneratedClient;

  before(async () => {
    generated = await generateAndCompile();
  });
  after(async () => rm(workDir, { recursive: true, force: true }));

  it("generates a client that compiles and exports one function per operation", () => {
    assert.equal(typeof generated.getTradeIndex, "function");
    assert.equal(typeof generated.createEstimate, "function");
    assert.equal(typeof generated.createQuote, "function");
  });

  for (const target of targets) {
    describe(target.name, () => {
      let server: Awaited<ReturnType<Target["start"]>>;
      before(async () => {
        server = await target.start();
        generated.client.setConfig({ baseUrl: server.url });
      });
      after(async () => server?.stop());

      it("reads the trade index", async () => {
        const { data, response } = await generated.getTradeIndex();
        assert.equal(response.status, 200);
        if (target.examples) assert.deepEqual(data, responseExample("getTradeIndex", "200"));
        else assert.equal((data as { trades: unknown[] }).trades.length, 8);
      });

      it("posts an estimate", async () => {
        const body = { trade: "electrical", location: { state: "CA", city: "Sacramento" }, urgency: "routine" };
        const { data, response } = await generated.createEstimate({ body });
        assert.equal(response.status, 200);
        if (target.examples) assert.deepEqual(data, responseExample("createEstimate", "200"));
        else
          assert.equal(
            (data as { wage_basis: { source: { soc_code: string } } }).wage_basis.source.soc_code,
            "47-2111",
          );
      });

      it("quotes with an API key header", async () => {
        const body = { trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent" };
        const { data, response } = await generated.createQuote({
          body,
          headers: { "x-api-key": server.apiKey ?? "dispatch_test_mock" },
        });
        assert.equal(response.status, 200);
        if (target.examples) assert.deepEqual(data, responseExample("createQuote", "200"));
        else assert.equal((data as { availability: { available: boolean } }).availability.available, true);
      });
    });
  }
});
