// The request validators the bundle loads (compiled at build time into cli/dist/validators) against the ones the
// source compiles at run time: the same verdict and the same error objects, operation by operation.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ValidateFunction } from "ajv";
import { operations } from "../../cli/generated/operations.js";
import type { OperationSpec } from "../../cli/operation-spec.js";
import { validatorFor } from "../../cli/request-validator.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const load = createRequire(import.meta.url);

/** Requests worth comparing: empty, the contract's example, and the example with each flag given a wrong type. */
function requestsOf(spec: OperationSpec): unknown[] {
  const example = (spec.example ?? {}) as Record<string, unknown>;
  const base = { path: {}, query: {}, header: {}, ...(spec.bodyContentType && { body: example }) };
  const wrong = spec.flags.map((flag) => {
    const value = flag.type === "string" ? 12345 : "not-a-number";
    const copy = JSON.parse(JSON.stringify(base)) as Record<string, Record<string, unknown>>;
    let node = copy[flag.in] ?? (copy[flag.in] = {});
    for (const key of flag.target.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[flag.target.at(-1)!] = value;
    return copy;
  });
  return [{}, base, ...wrong];
}

describe("cli prebuilt request validators", function () {
  this.timeout(120_000);
  before(async () => {
    if (!existsSync(`${root}cli/dist/validators`))
      await promisify(execFile)("npm", ["run", "build:cli"], { cwd: root });
  });

  for (const spec of operations)
    it(`${spec.operationId}: the built validator answers as the source's`, () => {
      const built = load(`${root}cli/dist/validators/${spec.operationId}.cjs`) as ValidateFunction;
      const source = validatorFor(spec.operationId);
      const verdicts = new Set<boolean>();
      for (const request of requestsOf(spec)) {
        const valid = built(request);
        verdicts.add(valid);
        assert.equal(valid, source(request), JSON.stringify(request));
        assert.deepEqual(built.errors ?? null, source.errors ?? null, JSON.stringify(request));
      }
      // a flag of a wrong type is refused, so each operation with flags is compared on both verdicts
      if (spec.flags.length) assert.ok(verdicts.has(false));
    });
});
