// What an operator gets: `npm pack` @dispatch/server, install it with --omit=dev into an empty prefix (from the local
// npm cache where it can) and run `dispatch-server start` on embedded PGlite in a temporary directory; then the
// CI recipe of docs/ci-and-sandbox.md, as an integrator's job runs it: the packed SDK in a consumer project, the
// installed bin, and the guide's scenario-table test file run by the recipe's steps (its wall time is BENCHMARKS.md's).
import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { quoteRequest } from "../fixtures/requests.js";
import { withoutCoverage } from "../helpers/coverage-env.js";
import { sandboxCiJob, sandboxCiSteps, sandboxCiTestFile } from "../helpers/sandbox-ci.js";
import { freePort } from "../../mocks/prism.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
// `npm pack` keeps the coverage of the build its prepack runs (server/build.ts); the installs run npm's code only.
const npm = (args: string[], cwd: string, env = process.env) => run("npm", args, { cwd, env, maxBuffer: 16 * 2 ** 20 });
const adminToken = "pack-test-admin-token-0123456789";
/** Development tools that must not reach an operator's install. */
const devOnly = ["tsx", "typescript", "mocha", "@stoplight/prism-cli", "eslint", "playwright-core", "prettier"];

/** Starts the installed bin on port 0 and resolves with its URL once it logs that it listens. */
function startInstalled(bin: string, cwd: string): Promise<{ url: string; child: ChildProcess }> {
  const env = { ...process.env, LOG_LEVEL: "info", DISPATCH_ADMIN_TOKEN: adminToken };
  const args = ["start", "--port", "0", "--host", "127.0.0.1", "--database-url", "pglite://./data"];
  const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`not listening after 120 s: ${output}`));
    }, 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /dispatch listening on (http:\/\/[^\s(]+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(guard);
      resolve({ url, child });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", () => {
      clearTimeout(guard);
      reject(new Error(`exited: ${output}`));
    });
  });
}

describe("@dispatch/server package", function () {
  this.timeout(600_000);
  let dir: string;
  let server: { url: string; child: ChildProcess } | undefined;
  let prefix: string;
  let tarballs: { name: string; filename: string }[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "dispatch-server-pack-"));
    // prepack builds the server: the tarball carries dist/ though the clone does not.
    const packed = ["pack", "-w", "@dispatch/server", "-w", "@dispatch/sdk", "--pack-destination", dir, "--json"];
    const { stdout } = await npm(packed, root);
    tarballs = JSON.parse(stdout.slice(stdout.search(/^\[/m))) as { name: string; filename: string }[];
    const filename = tarballs.find((t) => t.name === "@dispatch/server")?.filename ?? "";
    prefix = join(dir, "app");
    await run("mkdir", ["-p", prefix]);
    writeFileSync(join(prefix, "package.json"), JSON.stringify({ name: "app", private: true }));
    const install = ["install", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", join(dir, filename)];
    await npm(install, prefix, withoutCoverage());
    server = await startInstalled(join(prefix, "node_modules", ".bin", "dispatch-server"), dir);
  });
  after(() => {
    server?.child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  it("installs without development tools", () => {
    const present = devOnly.filter((name) => existsSync(join(prefix, "node_modules", name)));
    assert.deepEqual(present, []);
    assert.ok(existsSync(join(prefix, "node_modules", "@dispatch", "server", "dist", "server", "main.js")));
  });

  it("answers /readyz and a quote made with an admin-issued key", async () => {
    const url = server?.url ?? "";
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    const issued = await fetch(`${url}/api/admin/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ account: "acme", environment: "test" }),
    });
    assert.equal(issued.status, 201);
    const { key } = (await issued.json()) as { key: string };
    const quote = await fetch(`${url}/api/dispatch/v1/quote`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(quoteRequest),
    });
    assert.equal(quote.status, 200);
    assert.match(((await quote.json()) as { quote_id: string }).quote_id, /^qt_/);
  });

  it("serves /docs with Redoc's script from the package itself", async () => {
    const url = server?.url ?? "";
    const page = await fetch(`${url}/docs`);
    assert.equal(page.status, 200);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(scripts, ["/docs/redoc.standalone.js"]);
    const script = await fetch(`${url}${scripts[0]}`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get("content-type") ?? "", /javascript/);
    assert.ok((await script.text()).includes("Redoc"));
  });

  it("runs the CI and sandbox guide's recipe: sandbox from the installed bin, every scenario through the SDK and a webhook receiver, the server stopped", async () => {
    const consumer = join(dir, "consumer");
    mkdirSync(consumer);
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true }));
    const testFile = sandboxCiTestFile();
    mkdirSync(join(consumer, dirname(testFile.path)), { recursive: true });
    writeFileSync(join(consumer, testFile.path), testFile.source);
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("DISPATCH_")));
    // The job's step that installs the tarballs, as written, with the tarballs where it expects them (its own
    // `npm ci` is the integrator's project's); the registry is asked for nothing the local cache has.
    const job = sandboxCiJob();
    const installs = job.runs.filter((line) => line.includes(".tgz"));
    assert.equal(installs.length, 1, job.runs.join("\n"));
    for (const [, path, filename] of installs[0].matchAll(/(\S*\/)?(dispatch-[\w.-]+\.tgz)/g)) {
      assert.ok(
        tarballs.some((t) => t.filename === filename),
        `${filename} is not what npm pack writes: ${tarballs.map((t) => t.filename).join(", ")}`,
      );
      mkdirSync(join(consumer, path ?? ""), { recursive: true });
      copyFileSync(join(dir, filename), join(consumer, path ?? "", filename));
    }
    const npmConfig = { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false" };
    await run("bash", ["-euo", "pipefail", "-c", installs[0]], {
      cwd: consumer,
      env: { ...withoutCoverage(), ...npmConfig },
    });
    const env = { ...inherited, PORT: String(await freePort()), ...job.env };
    const steps = ["bash", "-euo", "pipefail", "-c", sandboxCiSteps()] as const;
    const started = performance.now();
    const { stdout } = await run(steps[0], steps.slice(1), { cwd: consumer, env, timeout: 240_000 });
    const jobMs = performance.now() - started;
    assert.match(stdout, /"status":"ok"/);
    // node:test's summary (spec reporter `ℹ`, TAP `#`): one passing test per scenario the contract lists, none failed
    const summary = (name: string) => Number(new RegExp(`^[ℹ#] ${name} ([\\d.]+)$`, "m").exec(stdout)?.[1]);
    const contract = (await (await fetch(`${server?.url ?? ""}/openapi.json`)).json()) as {
      components: { schemas: { SandboxScenario: { enum: string[] } } };
    };
    const scenarios = contract.components.schemas.SandboxScenario.enum;
    assert.equal(summary("pass"), scenarios.length, stdout);
    assert.equal(summary("fail"), 0, stdout);
    for (const scenario of scenarios) assert.ok(stdout.includes(scenario), `${scenario} did not run: ${stdout}`);
    // "seconds, not minutes": a table that waited on the wall clock, or on a 429's Retry-After, would not make it
    const tableMs = summary("duration_ms");
    assert.ok(tableMs < 60_000, `the scenario table took ${tableMs} ms`);
    console.log(
      `      ${scenarios.length} scenarios in ${Math.round(tableMs)} ms (node --test); the whole block, sandbox start to stop, ${Math.round(jobMs)} ms`,
    );
    const log = readFileSync(join(consumer, "dispatch-sandbox.log"), "utf8");
    assert.equal(log.match(/dispatch: sandbox key/g)?.length, 1);
    const pid = Number(/"pid":(\d+)/.exec(log)?.[1]);
    assert.ok(pid > 0, log);
    for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(isAlive(pid), false, "the trap's SIGTERM stopped the sandbox server");
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
