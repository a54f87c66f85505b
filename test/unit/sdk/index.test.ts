// createDispatchClient(): which credential goes to which path, and the User-Agent, with an injected fetch.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { createDispatchClient, sdkVersion, type DispatchClientOptions } from "../../../sdk/index.js";

const packageVersion = (
  JSON.parse(readFileSync(new URL("../../../sdk/package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** A fetch that records every request and answers 200 `{}`. */
function recordingFetch() {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return Response.json({});
  };
  return { requests, fetch: fetch };
}

function clientWith(options: Partial<DispatchClientOptions>) {
  const recorder = recordingFetch();
  const client = createDispatchClient({
    baseUrl: "http://dispatch.test/",
    retry: false,
    fetch: recorder.fetch,
    ...options,
  });
  return { client, requests: recorder.requests };
}

const body = { trade: "plumbing" as const, location: { state: "TX" as const } };

describe("sdk client", () => {
  describe("auth headers", () => {
    it("sends x-api-key (and no Authorization) to the dispatch API", async () => {
      const { client, requests } = clientWith({ apiKey: "dispatch_test_k1", adminToken: "adm" });
      await client.POST("/api/dispatch/v1/quote", { body });
      assert.equal(requests[0].headers.get("x-api-key"), "dispatch_test_k1");
      assert.equal(requests[0].headers.get("authorization"), null);
    });

    it("sends an OAuth access token as a bearer when there is no API key", async () => {
      const { client, requests } = clientWith({ accessToken: "dat_abc" });
      await client.POST("/api/dispatch/v1/quote", { body });
      assert.equal(requests[0].headers.get("authorization"), "Bearer dat_abc");
      assert.equal(requests[0].headers.get("x-api-key"), null);
    });

    it("sends the API key as a bearer to /api/mcp", async () => {
      const { client, requests } = clientWith({ apiKey: "dispatch_test_k1" });
      await client.POST("/api/mcp", { body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
      assert.equal(requests[0].headers.get("authorization"), "Bearer dispatch_test_k1");
      assert.equal(requests[0].headers.get("x-api-key"), null);
    });

    it("sends the admin token as a bearer to /api/admin and never the API key", async () => {
      const { client, requests } = clientWith({ apiKey: "dispatch_test_k1", adminToken: "admin-secret" });
      await client.GET("/api/admin/v1/keys", {});
      assert.equal(requests[0].headers.get("authorization"), "Bearer admin-secret");
      assert.equal(requests[0].headers.get("x-api-key"), null);
    });

    it("sends no credential to public operations when none is configured", async () => {
      const { client, requests } = clientWith({});
      await client.GET("/api/dispatch/index");
      assert.equal(requests[0].headers.get("authorization"), null);
      assert.equal(requests[0].headers.get("x-api-key"), null);
    });
  });

  describe("User-Agent", () => {
    it("names the SDK version (sdk/package.json's) and the Node version by default", async () => {
      const { client, requests } = clientWith({});
      await client.GET("/healthz");
      assert.equal(sdkVersion, packageVersion);
      assert.equal(
        requests[0].headers.get("user-agent"),
        `dispatch-sdk/${packageVersion} node/${process.versions.node}`,
      );
    });

    it("uses the configured userAgent", async () => {
      const { client, requests } = clientWith({ userAgent: "acme-agent/2.1" });
      await client.GET("/healthz");
      assert.equal(requests[0].headers.get("user-agent"), "acme-agent/2.1");
    });

    it("keeps a User-Agent given per request", async () => {
      const { client, requests } = clientWith({});
      await client.GET("/healthz", { headers: { "user-agent": "per-call/1" } });
      assert.equal(requests[0].headers.get("user-agent"), "per-call/1");
    });

    // Browsers and Workers have no `process`: the SDK bundled for the browser runs in a child Node with it deleted.
    // Plain Node loads the bundle (no TypeScript loader: on Node 24 tsx's hooks run in-thread and need `process`).
    it("works where there is no process global, naming only the SDK", async () => {
      const dir = mkdtempSync(join(tmpdir(), "sdk-browser-"));
      try {
        const bundle = join(dir, "sdk.mjs");
        await build({
          entryPoints: [fileURLToPath(new URL("../../../sdk/index.ts", import.meta.url))],
          bundle: true,
          platform: "browser",
          format: "esm",
          outfile: bundle,
          logLevel: "silent",
        });
        const script = `
          const out = process.stdout;
          delete globalThis.process;
          const { createDispatchClient } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
          let agent;
          const fetch = async (request) => ((agent = request.headers.get("user-agent")), Response.json({}));
          await createDispatchClient({ baseUrl: "http://dispatch.test", retry: false, fetch }).GET("/healthz");
          out.write(JSON.stringify({ process: typeof process, agent }));`;
        const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
        assert.deepEqual(JSON.parse(stdout), { process: "undefined", agent: `dispatch-sdk/${packageVersion}` });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  it("joins the base URL without a double slash", async () => {
    const { client, requests } = clientWith({});
    await client.GET("/api/dispatch/v1/orders/{id}", { params: { path: { id: "ord_1" } } });
    assert.equal(requests[0].url, "http://dispatch.test/api/dispatch/v1/orders/ord_1");
  });
});
