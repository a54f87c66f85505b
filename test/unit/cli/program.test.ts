// buildProgram() with a command line builds only the branch it runs (the rest named only): that branch and the top
// level must read exactly as in the full tree.
import assert from "node:assert/strict";
import type { Command } from "commander";
import { buildProgram } from "../../../cli/program.js";

const run = async () => undefined;
const argv = (...words: string[]) => ["node", "dispatch", ...words];

/** Every command's help under `command`, keyed by its path. */
function helpTexts(command: Command, path: string[] = []): Map<string, string> {
  const texts = new Map([[path.join(" "), command.helpInformation()]]);
  for (const sub of command.commands) for (const entry of helpTexts(sub, [...path, sub.name()])) texts.set(...entry);
  return texts;
}

describe("cli program", () => {
  const full = buildProgram("1.0.0", run);
  const fullTexts = helpTexts(full);

  it("shows the same top-level help when only the root is built", () => {
    assert.equal(buildProgram("1.0.0", run, argv("--help")).helpInformation(), full.helpInformation());
  });

  it("builds the branch a command line runs exactly as the full tree does", () => {
    for (const top of full.commands) {
      const partial = buildProgram("1.0.0", run, argv(top.name(), "--help"));
      const branch = partial.commands.find((c) => c.name() === top.name())!;
      for (const [path, text] of helpTexts(branch, [top.name()])) assert.equal(text, fullTexts.get(path), path);
      assert.equal(
        helpTexts(branch, [top.name()]).size,
        [...fullTexts.keys()].filter((p) => p.split(" ")[0] === top.name()).length,
      );
    }
  });

  it("builds every branch for completion", () => {
    assert.deepEqual(
      [...helpTexts(buildProgram("1.0.0", run, argv("completion", "bash"))).keys()],
      [...fullTexts.keys()],
    );
  });
});
