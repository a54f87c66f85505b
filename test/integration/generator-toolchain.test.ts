// The generators' toolchain as docs/customers.md gives it: TypeScript 5 pinned (7 breaks openapi-typescript and hey-api)
// and the same version in the guide's commands, package.json and the tsc the generator tests compile with; and hey-api
// run where no tsconfig.json is found, with the guide's `output.module.extension: ".js"`, compiles under NodeNext.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { withoutCoverage } from "../helpers/coverage-env.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);
const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;

const nodeNext = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2023", "DOM", "DOM.Iterable"],
    strict: true,
    skipLibCheck: true,
    types: [],
    noEmit: true,
  },
  include: ["client"],
};

describe("generator toolchain", function () {
  this.timeout(240_000);

  it("pins TypeScript 5 alike in the customers guide's generator commands, package.json and the tsc the tests run", async () => {
    const guide = await readFile(`${root}docs/customers.md`, "utf8");
    const from = guide.indexOf("\n## Generate your own client\n");
    assert.ok(from >= 0, "docs/customers.md has a section 'Generate your own client'");
    const section = guide.slice(from, guide.indexOf("\n## ", from + 1));
    const pkg = (await readJson(`${root}package.json`)).devDependencies as Record<string, string>;
    const installed = (await readJson(`${root}node_modules/typescript/package.json`)).version as string;
    assert.match(pkg.typescript, /^5\.\d+\.\d+$/);
    assert.equal(installed, pkg.typescript);
    const pinned = [...section.matchAll(/(?<![\w-])typescript@(\S+?)[\s`]/g)].map((m) => m[1]);
    assert.ok(pinned.length >= 2, "the guide's commands pin typescript");
    assert.deepEqual(new Set(pinned), new Set([pkg.typescript]));
    for (const generator of ["openapi-typescript", "@hey-api/openapi-ts"])
      assert.ok(section.includes(`${generator}@${pkg[generator]}`), `the guide pins ${generator} as package.json does`);
  });

  it("hey-api run without a tsconfig.json, with output.module.extension .js, compiles under NodeNext", async () => {
    const dir = await mkdtemp(join(tmpdir(), "dispatch-hey-api-"));
    try {
      const config = {
        input: `${root}openapi.yaml`,
        output: { path: "client", module: { extension: ".js" } },
        plugins: ["@hey-api/typescript", "@hey-api/sdk", "@hey-api/client-fetch"],
        logs: { level: "silent" },
      };
      await writeFile(join(dir, "openapi-ts.config.mjs"), `export default ${JSON.stringify(config)};\n`);
      await run(`${root}node_modules/.bin/openapi-ts`, [], { cwd: dir, env: withoutCoverage() });
      assert.match(await readFile(join(dir, "client/index.ts"), "utf8"), /from '\.\/sdk\.gen\.js'/);
      await writeFile(join(dir, "tsconfig.json"), JSON.stringify(nodeNext)); // only now: the user's project
      await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
      await run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", dir], { env: withoutCoverage() });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
