// `dispatch-server start --help` on the built bin: every variable of the operating guide's table is a flag described
// by its row's meaning and its default, as the guide shows them (the guide read here, not the definition both come
// from).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { configTableFile, configTableRows } from "../../scripts/config-table.js";
import { flagName } from "../../server/bin/flags.js";
import { builtBinArgs, root } from "../helpers/server-process.js";

const plain = (markdown: string) => markdown.replaceAll("`", "").replace(/\s+/g, " ").trim();

/** The guide's variable rows: the names, each name's default (when the column splits one per name), the meaning. */
function guideRows() {
  return configTableRows(readFileSync(join(root, configTableFile), "utf8"))
    .map((line) => line.split(" | "))
    .filter((cells) => cells.length === 3)
    .map(([names, defaults, meaning]) => {
      const variables = [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]);
      const each = variables.length === 1 ? [defaults] : defaults.split(", ");
      return { variables, defaults: each.length === variables.length ? each : null, meaning: meaning.slice(0, -2) };
    });
}

describe("dispatch-server start --help (built bin)", function () {
  this.timeout(60_000);
  let help: string;
  before(async () => {
    const { stdout } = await promisify(execFile)(process.execPath, builtBinArgs("start", "--help"), { cwd: root });
    help = plain(stdout);
  });

  it("describes every variable of the operating guide's table with its meaning and its default", () => {
    const rows = guideRows();
    assert.ok(rows.flatMap((row) => row.variables).length > 40);
    for (const row of rows)
      row.variables.forEach((variable, i) => {
        const described = `--${flagName(variable)}${help.includes(`--no-${flagName(variable)}`) ? "" : " <value>"} ${variable}: ${plain(row.meaning)}`;
        assert.ok(help.includes(described), `${variable}: ${described}`);
        const fallback = row.defaults?.[i];
        if (fallback && fallback !== "unset")
          assert.ok(
            help.includes(`${described} (default ${plain(fallback)})`),
            `${variable} shows its default ${fallback}`,
          );
        if (fallback === "unset") assert.ok(!help.includes(`${described} (default`), `${variable} has no default`);
      });
  });
});
