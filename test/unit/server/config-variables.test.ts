// README's variable table and `dispatch-server start --help` come from one table: every configuration variable has
// a row, and README's rows are the table's, in its order.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { schema } from "../../../server/config.js";
import { markdownRow, variableRows } from "../../../server/config-variables.js";

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");

/** The rows of README's `| variable | default | meaning |` table. */
function readmeRows(): string[] {
  const lines = readme.split("\n");
  const start = lines.indexOf("| variable | default | meaning |");
  assert.ok(start >= 0, "README has the variable table");
  const rows: string[] = [];
  for (let i = start + 2; lines[i]?.startsWith("|"); i++) rows.push(lines[i]);
  return rows;
}

describe("configuration variables table", () => {
  it("has exactly one row for every variable of server/config.ts", () => {
    const documented = variableRows.flatMap((row) => row.variables);
    const variables = Object.keys((schema.describe() as { keys: Record<string, unknown> }).keys);
    assert.deepEqual([...documented].sort(), [...variables].sort());
  });

  it("is README's table, row for row (paste the expected line into README)", () => {
    assert.deepEqual(readmeRows(), variableRows.map(markdownRow));
  });
});
