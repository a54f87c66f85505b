// What a new user gets: `npm pack` each package, install the CLI globally into an empty prefix and run it against the
// real server; install the SDK into a fresh TypeScript project and type-check an import of it.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { withoutCoverage } from "../helpers/coverage-env.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
// `npm pack` keeps the coverage of the builds its prepack runs (cli/build.ts); the installs run npm's code only.
const npm = (args: string[], cwd: string, env = process.env) => run("npm", args, { cwd, env, maxBuffer: 16 * 2 ** 20 });

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

describe("packages", function () {
  this.timeout(600_000);
  let dir: string;
  let t: TestServer;
  const tarballs: Record<string, string> = {};

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "dispatch-pack-"));
    // `npm pack` runs each package's prepack, which builds it (its output precedes the JSON): the user builds nothing.
    const { stdout } = await npm(
      ["pack", "-w", "@dispatch/sdk", "-w", "@dispatch/cli", "--pack-destination", dir, "--json"],
      root,
    );
    for (const entry of JSON.parse(stdout.slice(stdout.search(/^\[/m))) as { name: string; filename: string }[])
      tarballs[entry.name] = join(dir, entry.filename);
    t = await startTestServer();
  });
  after(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("installs @dispatch/cli globally into an empty prefix, under 5 MB, with no server dependency", async () => {
    const prefix = join(dir, "prefix");
    await npm(
      ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", tarballs["@dispatch/cli"]],
      dir,
      withoutCoverage(),
    );
    const installed = join(prefix, "lib", "node_modules");
    assert.deepEqual(readdirSync(installed), ["@dispatch"]);
    assert.deepEqual(
      readdirSync(join(installed, "@dispatch", "cli")).filter((n) => n === "node_modules"),
      [],
    );
    assert.ok(sizeOf(installed) < 5 * 2 ** 20, `${sizeOf(installed)} bytes`);
    const bin = join(prefix, "bin", "dispatch");
    assert.equal((await run(bin, ["--version"])).stdout.trim(), "1.0.0");
    const index = await run(bin, ["index", "--base-url", t.url, "--query", "length(trades)"]);
    assert.equal(index.stdout.trim(), "8");
    // Every file of the build ships (the start-up bundle and each dependency's file, loaded when a command needs it).
    const files = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();
    assert.deepEqual(files(join(installed, "@dispatch", "cli", "dist")), files(join(root, "cli", "dist")));
    assert.match((await run(bin, ["index", "--base-url", t.url, "--output", "yaml"])).stdout, /^trades:$/m);
  });

  it("installs @dispatch/sdk into a fresh TypeScript project that imports it and type-checks", async () => {
    const project = join(dir, "app");
    await run("mkdir", ["-p", project]);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    await npm(
      ["install", "--prefer-offline", "--no-audit", "--no-fund", tarballs["@dispatch/sdk"]],
      project,
      withoutCoverage(),
    );
    writeFileSync(
      join(project, "app.ts"),
      `import { createDispatchClient, paginate, unwrap, type Schemas } from "@dispatch/sdk";
import { verifyWebhook } from "@dispatch/sdk/webhooks";
const client = createDispatchClient({ baseUrl: "http://127.0.0.1:3000", apiKey: "k", timeoutMs: 5000 });
const index: Schemas["TradeIndex"] | undefined = undefined;
export async function main(): Promise<void> {
  const trades = unwrap(await client.GET("/api/dispatch/index"));
  for await (const key of paginate(client, "/api/admin/v1/keys", { params: { query: { limit: 10 } } })) console.log(key.id);
  console.log(trades, index, verifyWebhook);
}
`,
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          noEmit: true,
          types: [],
          lib: ["ES2023", "DOM"],
        },
        files: ["app.ts"],
      }),
    );
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const checked = await run(process.execPath, [tsc, "-p", project], { env: withoutCoverage() }).catch(
      (err: unknown) => err as { stdout: string },
    );
    assert.equal(checked.stdout, "");
    // The offline audit verification docs/security.md lists ships, type-checks in a Node project and loads.
    writeFileSync(
      join(project, "audit.ts"),
      `import { parseVerifierKey, verifySealProof, type Checkpoint } from "@dispatch/sdk/attest";
export const check = (seal: string, proof: Parameters<typeof verifySealProof>[1], key: string): Checkpoint =>
  verifySealProof(seal, proof, parseVerifierKey(key));
`,
    );
    const nodeTypes = join(root, "node_modules", "@types");
    const options = { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", noEmit: true };
    writeFileSync(
      join(project, "tsconfig.node.json"),
      JSON.stringify({ compilerOptions: { ...options, types: ["node"], typeRoots: [nodeTypes] }, files: ["audit.ts"] }),
    );
    const audit = await run(process.execPath, [tsc, "-p", join(project, "tsconfig.node.json")], {
      env: withoutCoverage(),
    }).catch((err: unknown) => err as { stdout: string });
    assert.equal(audit.stdout, "");
    const loaded = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'const a = await import("@dispatch/sdk/attest"); console.log(Object.keys(a).sort().join(","))',
      ],
      { cwd: project },
    );
    assert.match(loaded.stdout, /parseVerifierKey/);
    assert.match(loaded.stdout, /verifySealProof/);
  });
});
