// Real third-party clients against the real server: the MCP SDK client, MCP Inspector's CLI (also with the CPU
// busy, since its failure against a 404 on GET /api/mcp was a race; moving an order to another arrival window
// with dispatch.reschedule_order; the key's orders as resources; cancelling only with the preview's confirmation
// token), oauth4webapi, and an orval-generated client.
import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as oauth from "oauth4webapi";
import { generate } from "orval";
import { anchorageContractor } from "../fixtures/requests.js";
import { withoutCoverage } from "../helpers/coverage-env.js";
import { node22 } from "../helpers/node22.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const workDir = `${root}test/tmp/third-party-${process.pid}`;
const inspector = `${root}node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js`;
const run = promisify(execFile);

interface Window {
  start: string;
  end: string;
}

/** One Inspector CLI call on Node 22 (Inspector 2.x needs it; see test/helpers/node22.ts); stdout is the JSON
 * result. Its catalog goes to the temp dir, not the user's home. */
async function inspect(url: string, args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(await node22(), [inspector, "--cli", `${url}/api/mcp`, "--transport", "http", ...args], {
    env: { ...withoutCoverage(), MCP_CATALOG_PATH: `${workDir}/catalog.json`, HOME: workDir },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** Keeps every core busy for at most `ms` (each child stops by itself; after() also kills it). */
function busyCpus(ms: number): ChildProcess[] {
  const loop = `const end = Date.now() + ${ms}; while (Date.now() < end) {}`;
  return Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ["-e", loop], { stdio: "ignore" }),
  );
}

async function inspectorSession(t: TestServer, key: string) {
  const list = await inspect(t.url, ["--method", "tools/list"]);
  const names = (list.tools as { name: string }[]).map((tool) => tool.name);
  assert.ok(names.includes("dispatch.quote") && names.includes("dispatch.index"), names.join());
  const index = await inspect(t.url, ["--method", "tools/call", "--tool-name", "dispatch.index"]);
  assert.equal(index.isError ?? false, false);
  const quote = await inspect(t.url, [
    "--header",
    `Authorization: Bearer ${key}`,
    "--method",
    "tools/call",
    "--tool-name",
    "dispatch.quote",
    "--tool-arg",
    "trade=plumbing",
    'location={"state":"TX","zip":"78701"}',
    "urgency=urgent",
  ]);
  assert.equal(quote.isError ?? false, false, JSON.stringify(quote));
  assert.equal((quote.structuredContent as { availability: { available: boolean } }).availability.available, true);
}

describe("third-party clients", function () {
  this.timeout(300_000);
  let t: TestServer;
  let key: string;
  before(async () => {
    await mkdir(workDir, { recursive: true });
    t = await startTestServer();
    key = (await t.issueKey({ account: "third-party" })).key;
  });
  after(async () => {
    await t?.stop();
    await rm(workDir, { recursive: true, force: true });
  });

  describe("@modelcontextprotocol/sdk Client", () => {
    it("reports no error through a whole session (the GET stream probe gets 405)", async () => {
      const errors: unknown[] = [];
      const client = new Client({ name: "silent-check", version: "1.0.0" });
      client.onerror = (error) => errors.push(error);
      const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      });
      await client.connect(transport);
      assert.ok((await client.listTools()).tools.length >= 4);
      await client.callTool({ name: "dispatch.index", arguments: {} });
      await client.close();
      assert.deepEqual(errors.map(String), []);
    });
  });

  describe("MCP Inspector CLI", () => {
    // The first run on Node < 22 downloads a Node 22 build (cached in the temp dir for later runs).
    before(() => node22());

    it("lists tools and calls a public and a keyed tool", () => inspectorSession(t, key));

    it("does the same three times in a row while every core is busy", async () => {
      const children = busyCpus(60_000);
      try {
        for (let i = 0; i < 3; i++) await inspectorSession(t, key);
      } finally {
        for (const child of children) child.kill();
      }
    });

    it("lists dispatch.reschedule_order and moves a keyed order to another window of its contractor with it", async () => {
      // an Anchorage contractor of its own that works round the clock (the demo pool has nobody there): its windows
      // do not depend on the hour the suite runs
      const always = [{ start: "00:00", end: "24:00" }];
      const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
      await t.app.services.contractors.create({
        ...anchorageContractor("carpentry", "Inspector Anchorage Carpentry"),
        working_hours: Object.fromEntries(days.map((day) => [day, always])),
      });
      const list = await inspect(t.url, ["--method", "tools/list"]);
      const tool = (list.tools as { name: string; inputSchema: { required?: string[] } }[]).find(
        (one) => one.name === "dispatch.reschedule_order",
      );
      assert.deepEqual(tool?.inputSchema.required, ["id", "arrival_window"]);
      const job = { trade: "carpentry", location: { state: "AK", city: "Anchorage" }, urgency: "urgent" };
      const rest = (path: string, body?: unknown) =>
        fetch(`${t.url}/api/dispatch/v1${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then((response) => response.json() as Promise<Record<string, unknown>>);
      // the horizon's latest windows: a window closes 30 minutes before its end, the last ones stay open
      // as an order shows them: start and end, without the quote's confidence (the MCP tool's input takes both)
      const [other, latest] = ((await rest("/quote", job)).arrival_windows as Window[])
        .slice(-2)
        .map(({ start, end }) => ({ start, end }));
      const created = await rest("/order", { ...job, description: "Hang a door.", arrival_window: latest });
      const id = (created.order as { id: string; arrival_window: Window }).id;
      assert.deepEqual((created.order as { arrival_window: Window }).arrival_window, latest);
      const moved = await inspect(t.url, [
        "--header",
        `Authorization: Bearer ${key}`,
        "--method",
        "tools/call",
        "--tool-name",
        "dispatch.reschedule_order",
        "--tool-arg",
        `id=${id}`,
        `arrival_window=${JSON.stringify(other)}`,
      ]);
      assert.equal(moved.isError ?? false, false, JSON.stringify(moved));
      assert.deepEqual((moved.structuredContent as { arrival_window: Window }).arrival_window, other);
      assert.deepEqual((await rest(`/orders/${id}`)).arrival_window, other);
    });
    it("lists the key's orders as resources and reads one (resources/list, resources/templates/list, resources/read)", async () => {
      const created = await fetch(`${t.url}/api/dispatch/v1/order`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ trade: "plumbing", location: { state: "TX", zip: "78701" }, description: "Drip." }),
      }).then((response) => response.json() as Promise<{ order: { id: string } }>);
      const uri = `dispatch://orders/${created.order.id}`;
      const auth = ["--header", `Authorization: Bearer ${key}`];
      const list = await inspect(t.url, [...auth, "--method", "resources/list"]);
      assert.ok(
        (list.resources as { uri: string }[]).some((resource) => resource.uri === uri),
        JSON.stringify(list),
      );
      const templates = await inspect(t.url, [...auth, "--method", "resources/templates/list"]);
      assert.deepEqual(
        (templates.resourceTemplates as { uriTemplate: string }[]).map((template) => template.uriTemplate),
        ["dispatch://orders/{id}"],
      );
      const read = await inspect(t.url, [...auth, "--method", "resources/read", "--uri", uri]);
      const [content] = read.contents as { uri: string; mimeType: string; text: string }[];
      assert.deepEqual([content.uri, content.mimeType], [uri, "application/json"]);
      assert.equal((JSON.parse(content.text) as { id: string }).id, created.order.id);
    });

    it("cancels with dispatch.cancel_order only on the second call, with the preview's confirmation token", async () => {
      const created = await fetch(`${t.url}/api/dispatch/v1/order`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ trade: "plumbing", location: { state: "TX", zip: "78701" }, description: "Drip." }),
      }).then((response) => response.json() as Promise<{ order: { id: string; status: string } }>);
      const id = created.order.id;
      const cancel = (...extra: string[]) =>
        inspect(t.url, [
          "--header",
          `Authorization: Bearer ${key}`,
          "--method",
          "tools/call",
          "--tool-name",
          "dispatch.cancel_order",
          "--tool-arg",
          `id=${id}`,
          "reason=duplicate",
          ...extra,
        ]);
      const status = () =>
        fetch(`${t.url}/api/dispatch/v1/orders/${id}`, { headers: { "x-api-key": key } })
          .then((response) => response.json() as Promise<{ status: string }>)
          .then((order) => order.status);
      const preview = (await cancel()).structuredContent as {
        confirmation_required: boolean;
        confirmation_token: string;
      };
      assert.equal(preview.confirmation_required, true);
      assert.equal(await status(), created.order.status);
      const done = await cancel(`confirmation_token=${preview.confirmation_token}`);
      assert.equal((done.structuredContent as { status: string }).status, "cancelled", JSON.stringify(done));
      assert.equal(await status(), "cancelled");
    });
  });

  describe("oauth4webapi", () => {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated only as a warning marker; the test server is plain-http loopback
    const insecure = { [oauth.allowInsecureRequests]: true };
    it("discovers (RFC 8414), registers with token_endpoint_auth_method (RFC 7591) and gets a token", async () => {
      const issuer = new URL(t.url);
      const as = await oauth.processDiscoveryResponse(
        issuer,
        await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
      );
      const registered = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(
          as,
          { client_name: "oauth4webapi", token_endpoint_auth_method: "client_secret_post", grant_types: [] },
          insecure,
        ),
      );
      assert.equal(registered.token_endpoint_auth_method, "client_secret_post");
      const client: oauth.Client = { client_id: registered.client_id };
      const token = await oauth.processClientCredentialsResponse(
        as,
        client,
        await oauth.clientCredentialsGrantRequest(
          as,
          client,
          oauth.ClientSecretPost(registered.client_secret as string),
          { scope: "dispatch.quote" },
          insecure,
        ),
      );
      const quote = await fetch(`${t.url}/api/dispatch/v1/quote`, {
        method: "POST",
        headers: { authorization: `Bearer ${token.access_token}`, "content-type": "application/json" },
        body: JSON.stringify({ trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent" }),
      });
      assert.equal(quote.status, 200);
    });
  });

  describe("orval-generated fetch client", () => {
    it("generates from openapi.yaml, compiles under --strict and quotes against the server", async () => {
      const dir = `${workDir}/orval`;
      await generate(
        {
          input: { target: `${root}openapi.yaml` },
          output: { target: `${dir}/client.ts`, client: "fetch", baseUrl: t.url, mode: "single" },
        },
        dir,
      );
      await writeFile(`${dir}/package.json`, JSON.stringify({ type: "module" }));
      const compilerOptions = { strict: true, skipLibCheck: true, target: "ES2022", module: "NodeNext", types: [] };
      const tsconfig = { compilerOptions: { ...compilerOptions, lib: ["ES2023", "DOM", "DOM.Iterable"] } };
      await writeFile(`${dir}/tsconfig.json`, JSON.stringify({ ...tsconfig, files: ["client.ts"] }));
      await run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", dir], {
        env: withoutCoverage(),
      }).catch((e: unknown) => assert.fail((e as { stdout: string }).stdout));
      const generated = (await import(pathToFileURL(`${dir}/client.js`).href)) as {
        getTradeIndex(): Promise<{ status: number; data: { trades: unknown[] } }>;
        createQuote(body: unknown, init: RequestInit): Promise<{ status: number; data: { availability: unknown } }>;
      };
      assert.equal((await generated.getTradeIndex()).data.trades.length, 8);
      const quote = await generated.createQuote(
        { trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent" },
        { headers: { "x-api-key": key } },
      );
      assert.equal(quote.status, 200);
      assert.deepEqual(quote.data.availability, { ...(quote.data.availability as object), available: true });
    });
  });
});
