// Every ```ts example in sdk/README.md type-checks against the built @dispatch/sdk (strict, NodeNext), as an
// integrator's project would compile it. Identifiers an example only refers to (a client, a raw body) are declared.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { withoutCoverage } from "../../helpers/coverage-env.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const dir = join(root, "test", "tmp", "sdk-readme");
const ambient: Record<string, string> = {
  dispatch: 'declare const dispatch: import("@dispatch/sdk").DispatchClient;',
  rawBody: "declare const rawBody: string;",
  request: "declare const request: { headers: Record<string, string> };",
  seal: "declare const seal: string;",
  pinnedKey: "declare const pinnedKey: string;",
  proof: 'declare const proof: Parameters<typeof import("@dispatch/sdk/attest").verifySealProof>[1];',
};

function examples(): string[] {
  const readme = readFileSync(join(root, "sdk", "README.md"), "utf8");
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
}

function withAmbient(code: string): string {
  const declared = (name: string) => new RegExp(`\\b(const|let|function)\\s+${name}\\b`).test(code);
  const used = Object.keys(ambient).filter((name) => new RegExp(`\\b${name}\\b`).test(code) && !declared(name));
  return `${used.map((name) => ambient[name]).join("\n")}\n${code}\nexport {};\n`;
}

describe("sdk/README.md", () => {
  it("has examples that type-check against the built package", async function () {
    this.timeout(120_000);
    const blocks = examples();
    assert.ok(blocks.length >= 3, "the README shows at least three examples");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    blocks.forEach((code, i) => {
      writeFileSync(join(dir, `example-${i + 1}.ts`), withAmbient(code));
    });
    const options = { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", noEmit: true };
    const types = ["node"];
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { ...options, types }, include: ["*.ts"] }),
    );
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const output = await new Promise<string>((resolve) => {
      execFile(process.execPath, [tsc, "-p", dir], { env: withoutCoverage() }, (error, stdout) => {
        resolve(error ? stdout || error.message : "");
      });
    });
    assert.equal(output, "", output);
  });
});
