// The server's types come from openapi.yaml: in a copy of the tree, renaming a response field and a request
// field in the contract and regenerating must make tsc fail over server/, naming both; the unmodified copy passes.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { isMap, isScalar, isSeq, parseDocument, visit, type Document } from "yaml";
import { withoutCoverage } from "../helpers/coverage-env.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

/** Copies what generating and type-checking the server needs; node_modules is linked, not copied. */
async function copyTree(dir: string): Promise<void> {
  for (const entry of [
    "openapi.yaml",
    "docs",
    "redocly.yaml",
    "package.json",
    "tsconfig.json",
    "sdk",
    "server",
    "scripts",
  ])
    await cp(join(root, entry), join(dir, entry), { recursive: true });
  await mkdir(join(dir, "cli/generated"), { recursive: true }); // the generator writes the CLI's files too
  await cp(join(root, "cli/package.json"), join(dir, "cli/package.json"));
  await symlink(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  const serverOnly = { extends: "./tsconfig.json", include: ["server"], exclude: [] };
  await writeFile(join(dir, "tsconfig.server.json"), JSON.stringify(serverOnly));
}

/** tsc over server/ (and what it imports): its exit status and diagnostics. */
async function typecheckServer(dir: string): Promise<{ ok: boolean; output: string }> {
  const tsc = join(root, "node_modules/typescript/bin/tsc");
  try {
    await run(process.execPath, [tsc, "-p", "tsconfig.server.json"], {
      cwd: dir,
      maxBuffer: 16 << 20,
      env: withoutCoverage(),
    });
    return { ok: true, output: "" };
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return { ok: false, output: `${stdout}${stderr}` };
  }
}

/** Renames a property everywhere the contract declares or requires it (schemas and examples alike). */
function renameEverywhere(doc: Document, from: string, to: string): void {
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === from) pair.key.value = to;
    },
    Seq(_, seq) {
      for (const item of seq.items) if (isScalar(item) && item.value === from) item.value = to;
    },
  });
}

/** Renames one property of one schema (and its `required` entry). */
function renameInSchema(doc: Document, schema: string, from: string, to: string): void {
  const node = doc.getIn(["components", "schemas", schema]);
  assert.ok(isMap(node), `schema ${schema}`);
  const properties = node.get("properties");
  assert.ok(isMap(properties));
  const pair = properties.items.find((p) => isScalar(p.key) && p.key.value === from);
  assert.ok(pair && isScalar(pair.key), `${schema}.${from}`);
  pair.key.value = to;
  const required = node.get("required");
  if (isSeq(required)) for (const item of required.items) if (isScalar(item) && item.value === from) item.value = to;
}

describe("contract types in the server", function () {
  this.timeout(600_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "dispatch-contract-types-"));
    await copyTree(dir);
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("type-checks the unmodified copy", async () => {
    const { ok, output } = await typecheckServer(dir);
    assert.ok(ok, output);
  });

  it("fails to type-check once estimated_response_minutes and OrderRequest.reference_id are renamed", async () => {
    const path = join(dir, "openapi.yaml");
    const doc = parseDocument(await readFile(path, "utf8"));
    renameEverywhere(doc, "estimated_response_minutes", "estimated_response_mins");
    renameInSchema(doc, "OrderRequest", "reference_id", "client_reference");
    await writeFile(path, doc.toString());
    await run(process.execPath, ["--import", "tsx", "scripts/generate.ts"], { cwd: dir, env: withoutCoverage() });
    const generated = await readFile(join(dir, "sdk/generated/openapi.d.ts"), "utf8");
    assert.match(generated, /estimated_response_mins:/);
    assert.match(generated, /client_reference\?:/);

    const { ok, output } = await typecheckServer(dir);
    assert.equal(ok, false, "tsc passed over a server that still uses the old names");
    assert.match(output, /server\/services\/dispatch\/\S+\.ts\(\d+,\d+\): error TS\d+: .*'estimated_response_minutes'/);
    assert.match(output, /server\/services\/dispatch\/\S+\.ts\(\d+,\d+\): error TS\d+: .*'reference_id'/);
  });
});
