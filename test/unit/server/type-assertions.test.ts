// The server's type assertions are a budget: rows, config and request parts are typed at their source (typed Knex
// tables, the validated env, the contract's types), so an `as X` is a claim tsc cannot check and new ones need a
// reason strong enough to raise the ceiling here. `as const` is not an assertion of that kind and is not counted.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const serverDir = fileURLToPath(new URL("../../../server/", import.meta.url));
const ceiling = 80;

const isConst = (node: ts.AssertionExpression) =>
  ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName) && node.type.typeName.text === "const";

/** The `x as T` and `<T>x` expressions of one source text. */
function assertionsIn(file: string, text: string): number {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  let count = 0;
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isConst(node)) count += 1;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

function serverFiles(): string[] {
  return readdirSync(serverDir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".ts") && !file.split(/[\\/]/).includes("generated"));
}

describe("server type assertions", () => {
  it("counts `as` and `<T>` assertions, not `as const`", () => {
    assert.equal(assertionsIn("x.ts", "const a = b as string; const c = <number>d; const e = [1] as const;"), 2);
  });

  it(`stays at or under ${ceiling} in server/ (generated code excluded)`, () => {
    const perFile = serverFiles()
      .map((file) => [file, assertionsIn(file, readFileSync(join(serverDir, file), "utf8"))] as const)
      .filter(([, count]) => count > 0);
    const total = perFile.reduce((sum, [, count]) => sum + count, 0);
    const worst = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 5);
    assert.ok(total <= ceiling, `${total} type assertions (most in ${JSON.stringify(worst)})`);
  });
});
