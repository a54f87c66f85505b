// The official MCP conformance suite (@modelcontextprotocol/conformance, its `server` mode) against the real
// server: the scenarios that apply to a product server. The suite connects without headers, so a loopback proxy
// adds the key's `Authorization: Bearer` (the suite then lists that key's real orders as resources).
//
// Resource scenarios run: `resources-list` (a list of the key's orders, each with a uri and a name).
// Resource scenarios not run, and why: `resources-read-text`, `resources-read-binary` and
// `resources-templates-read` read fixed fixture URIs (`test://static-text`, `test://static-binary`,
// `test://template/{id}/data`) that only the suite's reference server serves; this server's resources are the key's
// orders (`dispatch://orders/{id}`), whose read is tested with the SDK client and the Inspector CLI instead
// (mcp-resources.test.ts, third-party-clients.test.ts). `resources-subscribe` and `resources-unsubscribe` need
// `resources.subscribe`, which a stateless server (no session, no stream) does not declare.
// Also run, as the frame the resources scenario sits in: `server-initialize`, `ping` and `tools-list`.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { withoutCoverage } from "../helpers/coverage-env.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const suite = `${root}node_modules/@modelcontextprotocol/conformance/dist/index.js`;
const run = promisify(execFile);
let runs = 0;

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** A loopback proxy to `target` that adds `authorization` to every request (the suite sends no headers). */
async function authorizingProxy(target: string, authorization: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string" && name !== "host" && name !== "content-length") headers.set(name, value);
      headers.set("authorization", authorization);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      fetch(`${target}${req.url}`, { method: req.method, headers, body })
        .then(async (response) => {
          const out: Record<string, string> = {};
          response.headers.forEach((value, name) => {
            out[name] = value;
          });
          res.writeHead(response.status, out);
          res.end(Buffer.from(await response.arrayBuffer()));
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}

/** Runs one scenario and answers its checks (the suite writes checks.json per scenario under `outDir`). */
async function scenario(url: string, name: string, outDir: string): Promise<Check[]> {
  const dir = join(outDir, `${name}-${++runs}`);
  const ran = await run(process.execPath, [suite, "server", "--url", `${url}/api/mcp`, "--scenario", name, "-o", dir], {
    timeout: 60_000,
    env: withoutCoverage(),
  }).catch((error: unknown) => error); // a failed scenario exits 1: its checks.json says which check failed
  const files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith("checks.json"));
  assert.equal(files.length, 1, `${name}: ${JSON.stringify(ran)}`);
  return JSON.parse(await readFile(join(dir, files[0]), "utf8")) as Check[];
}

describe("MCP conformance suite (server scenarios that apply)", function () {
  this.timeout(180_000);
  let t: TestServer;
  let proxy: { url: string; server: Server };
  let outDir: string;
  before(async () => {
    t = await startTestServer();
    const { key } = await t.issueKey({ account: "conformance" });
    for (const reference of ["conf-1", "conf-2"]) {
      const response = await fetch(`${t.url}/api/dispatch/v1/order`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({
          trade: "plumbing",
          location: { state: "TX", zip: "78701" },
          description: "Conformance order.",
          reference_id: reference,
        }),
      });
      assert.equal(response.status, 201);
    }
    proxy = await authorizingProxy(t.url, `Bearer ${key}`);
    outDir = await mkdtemp(join(tmpdir(), "mcp-conformance-"));
  });
  after(async () => {
    proxy?.server.close();
    await t?.stop();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  for (const name of ["server-initialize", "ping", "tools-list", "resources-list"])
    it(`passes ${name}`, async () => {
      const checks = await scenario(proxy.url, name, outDir);
      const failed = checks.filter((check) => check.status === "FAILURE");
      assert.deepEqual(failed, [], JSON.stringify(checks, null, 2));
      assert.ok(
        checks.some((check) => check.status === "SUCCESS"),
        JSON.stringify(checks),
      );
    });

  it("lists the key's two orders in resources-list", async () => {
    const checks = await scenario(proxy.url, "resources-list", outDir);
    const listed = checks.find((check) => check.id === "resources-list") as Check & {
      details: { resourceCount: number; resources: string[] };
    };
    assert.equal(listed.status, "SUCCESS");
    assert.equal(listed.details.resourceCount, 2);
    for (const uri of listed.details.resources) assert.match(uri, /^dispatch:\/\/orders\/ord_/);
  });
});
