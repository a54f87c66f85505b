// Integrators generate clients from openapi.yaml with many tools. For each: generate into a temp dir, compile it
// under --strict with a typed snippet that narrows createOrder's 201/202 on `fulfilled` and reads a 422
// problem's `errors`, then quote and order against one real server. Generation runs in parallel; one tsc
// compiles every client.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createClient as heyApi } from "@hey-api/openapi-ts";
import openapiTS, { astToString } from "openapi-typescript";
import { generate as orval } from "orval";
import { generateApi } from "swagger-typescript-api";
import { generateZodClientFromOpenAPI } from "openapi-zod-client";
import { parse } from "yaml";
import { withoutCoverage } from "../helpers/coverage-env.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const contract = `${root}openapi.yaml`;
const workDir = `${root}test/tmp/generators-${process.pid}`;
const run = promisify(execFile);

/** What every snippet returns after quoting, ordering that quote and sending an invalid quote. */
interface Outcome {
  quoteId: string;
  /** `order.status` read in the fulfilled branch, `fulfilment.reason` in the other. */
  branch: string;
  fulfilled: boolean;
  problemPointer: string | undefined;
}

const quoteBody = `{ trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent" }`;
const orderBody = (quoteId: string) =>
  `{ trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent", description: "Leaking supply line.", quote_id: ${quoteId} }`;
const badQuote = `{ trade: "plumbing", location: { state: "TX", zip: "not-a-zip" } }`;

interface Generator {
  name: string;
  generate(dir: string, baseUrl: string): Promise<void>;
  /** use.ts: `export async function run(baseUrl: string, key: string): Promise<Outcome>`. */
  snippet: string;
}

const outcome = `{ quoteId: quote.quote_id, fulfilled: order.fulfilled, branch, problemPointer }`;
const narrow = `
  // Narrowing: only OrderCreated has order.status "pending_dispatch"; only OrderAccepted has fulfilment.
  let branch: string;
  if (order.fulfilled) {
    const status: "pending_dispatch" | undefined = order.order.status;
    branch = String(status);
  } else branch = order.fulfilment.reason;`;

const generators: Generator[] = [
  {
    name: "openapi-typescript (default options) + openapi-fetch",
    async generate(dir) {
      await writeFile(`${dir}/openapi.d.ts`, astToString(await openapiTS(pathToFileURL(contract))));
    },
    snippet: `import createClient from "openapi-fetch";
import type { paths } from "./openapi.js";
export async function run(baseUrl: string, key: string) {
  const client = createClient<paths>({ baseUrl, headers: { "x-api-key": key } });
  const quoted = await client.POST("/api/dispatch/v1/quote", { body: ${quoteBody} });
  if (!quoted.data) throw new Error("quote failed");
  const quote = quoted.data;
  const ordered = await client.POST("/api/dispatch/v1/order", { body: ${orderBody("quote.quote_id")} });
  if (!ordered.data) throw new Error("order failed");
  const order = ordered.data;${narrow}
  const bad = await client.POST("/api/dispatch/v1/quote", { body: ${badQuote} });
  const problemPointer = bad.error?.errors?.[0]?.pointer;
  return ${outcome};
}
`,
  },
  {
    name: "@hey-api/openapi-ts",
    async generate(dir) {
      await heyApi({
        input: contract,
        output: { path: `${dir}/client` },
        plugins: ["@hey-api/typescript", "@hey-api/sdk", "@hey-api/client-fetch"],
        logs: { level: "silent" },
      });
    },
    snippet: `import { createQuote, createOrder } from "./client/index.js";
import { client } from "./client/client.gen.js";
export async function run(baseUrl: string, key: string) {
  client.setConfig({ baseUrl, headers: { "x-api-key": key } });
  const quoted = await createQuote({ body: ${quoteBody} });
  if (!quoted.data) throw new Error("quote failed");
  const quote = quoted.data;
  const ordered = await createOrder({ body: ${orderBody("quote.quote_id")} });
  if (!ordered.data) throw new Error("order failed");
  const order = ordered.data;${narrow}
  const bad = await createQuote({ body: ${badQuote} as never });
  const problemPointer = bad.error?.errors?.[0]?.pointer;
  return ${outcome};
}
`,
  },
  {
    name: "orval (fetch client)",
    async generate(dir, baseUrl) {
      await orval(
        {
          input: { target: contract },
          output: { target: `${dir}/client.ts`, client: "fetch", baseUrl, mode: "single" },
        },
        dir,
      );
    },
    snippet: `import { createQuote, createOrder } from "./client.js";
export async function run(_baseUrl: string, key: string) {
  const init = { headers: { "x-api-key": key } };
  const quoted = await createQuote(${quoteBody}, init);
  if (quoted.status !== 200) throw new Error("quote failed");
  const quote = quoted.data;
  const ordered = await createOrder(${orderBody("quote.quote_id")}, init);
  if (ordered.status !== 201 && ordered.status !== 202) throw new Error("order failed");
  const order = ordered.data;${narrow}
  const bad = await createQuote(${badQuote} as never, init);
  const problemPointer = bad.status === 422 ? bad.data.errors?.[0]?.pointer : undefined;
  return ${outcome};
}
`,
  },
  {
    name: "kubb (plugin-client, fetch)",
    async generate(dir) {
      await run(process.execPath, ["--import", "tsx", `${root}test/helpers/kubb-generate.ts`, contract], {
        cwd: dir,
        env: withoutCoverage(),
      });
    },
    snippet: `import { createQuote, createOrder, type CreateQuote422 } from "./client/index.js";
export async function run(baseURL: string, key: string) {
  const config = { baseURL, headers: { "x-api-key": key } };
  const quote = (await createQuote(${quoteBody}, config)).data;
  const order = (await createOrder(${orderBody("quote.quote_id")}, undefined, config)).data;${narrow}
  // Kubb's fetch client resolves error answers too and types data as the success body: the 422 type is named.
  const bad = await createQuote(${badQuote} as never, config);
  const problemPointer = bad.status === 422 ? (bad.data as unknown as CreateQuote422).errors?.[0]?.pointer : undefined;
  return ${outcome};
}
`,
  },
  {
    name: "swagger-typescript-api (fetch)",
    async generate(dir) {
      await generateApi({ input: contract, output: dir, fileName: "api.ts", httpClientType: "fetch", silent: true });
    },
    snippet: `import { Api, type HttpResponse, type OrderAccepted, type Problem } from "./api.js";
export async function run(baseUrl: string, key: string) {
  const api = new Api({ baseUrl, baseApiParams: { headers: { "x-api-key": key } } });
  const quote = (await api.api.createQuote(${quoteBody})).data;
  const created = (await api.api.createOrder(${orderBody("quote.quote_id")})).data;
  // The tool types a call by its first 2xx response only (201): the 202 body has to be added by hand.
  const order: typeof created | OrderAccepted = created;${narrow}
  let problemPointer: string | undefined;
  try {
    await api.api.createQuote(${badQuote} as never);
  } catch (failed) {
    problemPointer = (failed as HttpResponse<unknown, Problem>).error.errors?.[0]?.pointer;
  }
  return ${outcome};
}
`,
  },
  {
    name: "openapi-zod-client (fetch template)",
    async generate(dir) {
      await generateZodClientFromOpenAPI({
        openApiDoc: parse(await readFile(contract, "utf8")) as Parameters<
          typeof generateZodClientFromOpenAPI
        >[0]["openApiDoc"],
        distPath: `${dir}/client.ts`,
        templatePath: `${root}test/fixtures/generators/zod-fetch-client.hbs`,
        options: { withAlias: true, withAllResponses: true, isMediaTypeAllowed: (type) => type.includes("json") },
      });
    },
    snippet: `import { call } from "./client.js";
export async function run(baseUrl: string, key: string) {
  const headers = { "x-api-key": key };
  const quoted = await call(baseUrl, "createQuote", { body: ${quoteBody}, headers });
  if (quoted.status !== "200") throw new Error("quote failed");
  const quote = quoted.data;
  const ordered = await call(baseUrl, "createOrder", { body: ${orderBody("quote.quote_id")}, headers });
  if (ordered.status !== "201" && ordered.status !== "202") throw new Error("order failed");
  const order = ordered.data;${narrow}
  const bad = await call(baseUrl, "createQuote", { body: ${badQuote}, headers });
  const problemPointer = bad.status === "422" ? bad.data.errors?.[0]?.pointer : undefined;
  return ${outcome};
}
`,
  },
];

const tsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2023", "DOM", "DOM.Iterable"],
    strict: true,
    skipLibCheck: true,
    types: [],
  },
  include: ["**/*.ts"],
};

const dirOf = (i: number) => `${workDir}/g${i}`;

describe("generator matrix: clients generated from openapi.yaml", function () {
  this.timeout(300_000);
  let t: TestServer;
  let key: string;
  let diagnostics = "";

  before(async () => {
    await rm(workDir, { recursive: true, force: true });
    t = await startTestServer();
    key = (await t.issueKey({ account: "generators" })).key;
    await Promise.all(
      generators.map(async (g, i) => {
        await mkdir(dirOf(i), { recursive: true });
        await g.generate(dirOf(i), t.url);
        await writeFile(`${dirOf(i)}/use.ts`, g.snippet);
      }),
    );
    await writeFile(`${workDir}/package.json`, JSON.stringify({ type: "module" }));
    await writeFile(`${workDir}/tsconfig.json`, JSON.stringify(tsconfig));
    await run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", workDir], {
      maxBuffer: 16 * 1024 * 1024,
      env: withoutCoverage(),
    }).catch((e: unknown) => (diagnostics = (e as { stdout: string }).stdout));
  });
  after(async () => {
    await t?.stop();
    await rm(workDir, { recursive: true, force: true });
  });

  generators.forEach((g, i) => {
    describe(g.name, () => {
      it("compiles under --strict with the narrowing snippet", () => {
        const own = diagnostics.split("\n").filter((line) => line.startsWith(`g${i}/`));
        assert.deepEqual(own, []);
      });

      it("quotes, orders the quote (201, fulfilled) and reads a 422 problem's errors against the real server", async () => {
        const { run } = (await import(pathToFileURL(`${dirOf(i)}/use.js`).href)) as {
          run: (baseUrl: string, key: string) => Promise<Outcome>;
        };
        const result = await run(t.url, key);
        assert.match(result.quoteId, /^qt_/);
        assert.equal(result.fulfilled, true);
        assert.equal(result.branch, "pending_dispatch");
        assert.equal(result.problemPointer, "/location/zip");
      });
    });
  });
});
