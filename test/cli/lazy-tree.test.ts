// A command line builds only the command it runs (cli/program.ts): that command reads exactly as in the full tree,
// its group's help and the top-level help list the stubs beside it exactly as the built commands, and nothing else
// of the tree is built.
import assert from "node:assert/strict";
import type { Command } from "commander";
import { commandPath } from "../../cli/command-word.js";
import { operations } from "../../cli/generated/operations.js";
import { buildProgram } from "../../cli/program.js";
import { runCli } from "./run-cli.js";

const run = async () => undefined;
const argv = (...words: string[]) => ["node", "dispatch", ...words];

function find(root: Command, words: readonly string[]): Command {
  return words.reduce<Command | undefined>((c, w) => c?.commands.find((s) => s.name() === w), root)!;
}

/** Every command under `root` with its words. */
function allCommands(root: Command, path: string[] = []): [string[], Command][] {
  return root.commands.flatMap((c): [string[], Command][] => [
    [[...path, c.name()], c],
    ...allCommands(c, [...path, c.name()]),
  ]);
}

describe("cli lazy command tree", () => {
  const full = buildProgram("1.0.0", run);
  const leaves = operations.map((o) => o.command).filter((c) => find(full, c).commands.length === 0);

  it("finds the command a command line names, through groups, options and help", () => {
    const isGroup = (words: readonly string[]) => find(full, words)?.commands.length > 0;
    const cases: [string[], string[]][] = [
      [[], []],
      [["--help"], []],
      [["help"], []],
      [["quote", "--trade", "hvac"], ["quote"]],
      [
        ["-o", "json", "jobs", "list", "--status", "x"],
        ["jobs", "list"],
      ],
      [
        ["orders", "get", "ord_1"],
        ["orders", "get"],
      ],
      [
        ["orders", "revisions", "approve", "ord_1", "rev_1"],
        ["orders", "revisions", "approve"],
      ],
      [["help", "jobs", "list"], ["jobs"]],
      [
        ["jobs", "help", "list"],
        ["jobs", "list"],
      ],
      [["jobs", "help"], ["jobs"]],
      [["jobs", "--help"], ["jobs"]],
      [
        ["jobs", "lst"],
        ["jobs", "lst"],
      ],
      [["--bogus", "jobs", "list"], []],
    ];
    for (const [words, expected] of cases)
      assert.deepEqual(commandPath(full, argv(...words), isGroup), expected, words.join(" "));
  });

  it("builds the command that runs in full and its siblings as stubs with the same help lines", () => {
    for (const words of leaves) {
      const partial = buildProgram("1.0.0", run, argv(...words));
      const label = words.join(" ");
      assert.equal(find(partial, words).helpInformation(), find(full, words).helpInformation(), label);
      // the parent's help lists the siblings (stubs) exactly as the full tree does
      const parent = words.slice(0, -1);
      assert.equal(find(partial, parent).helpInformation(), find(full, parent).helpInformation(), label);
      // nothing but the command that runs is built: every other operation has no options of its own
      // (attest's commands are completed by hand, cli/commands/attest.ts, so that group is built whole)
      for (const other of leaves.filter(
        (l) => l.join(" ") !== label && !(l[0] === "attest" && words[0] === "attest"),
      )) {
        const command = find(partial, other) as Command | undefined; // undefined: its group is only named
        assert.ok(!command || command.options.length === 0, `${other.join(" ")} built for ${label}`);
      }
    }
  });

  it("names the commands of a group that does not run without building them", () => {
    const partial = buildProgram("1.0.0", run, argv("quote"));
    const built = allCommands(partial)
      .filter(([, c]) => c.options.length > 0)
      .map(([w]) => w.join(" "));
    assert.deepEqual(
      built.filter((w) => leaves.some((l) => l.join(" ") === w)),
      ["quote"],
    );
    assert.equal(partial.helpInformation(), full.helpInformation());
  });

  it("suggests a sibling for a mistyped command, as the full tree does", async () => {
    const answer = await runCli(["jobs", "lst"]);
    assert.equal(answer.code, 2);
    assert.match(answer.stderr, /unknown command 'lst' \(Did you mean list\?\)/);
  });
});
