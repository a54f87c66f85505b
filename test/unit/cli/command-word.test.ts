// commandWord() must name the top-level command commander dispatches a command line to (cli/program.ts builds only
// that branch in full).
import assert from "node:assert/strict";
import { commandWord } from "../../../cli/command-word.js";
import { buildProgram } from "../../../cli/program.js";

describe("cli commandWord", () => {
  const program = buildProgram("1.0.0", async () => undefined);
  const cases: [string[], string | undefined][] = [
    [[], undefined],
    [["--help"], undefined],
    [["-V"], undefined],
    [["orders", "list"], "orders"],
    [["--output", "json", "orders", "list"], "orders"],
    [["-o", "yaml", "--query", "items", "orders"], "orders"],
    [["--output=json", "quote"], "quote"],
    [["-ojson", "quote"], "quote"],
    [["--dry-run", "-H", "x-a: 1", "quote", "--trade", "hvac"], "quote"],
    [["help", "orders", "get"], "orders"],
    [["help", "--profile", "p", "admin"], "admin"],
    [["help"], "help"],
    [["--", "orders"], "orders"],
    // commander hands everything from an option it does not know on to a subcommand, so it dispatches to none
    [["--bogus", "orders"], undefined],
    [["-h", "orders"], undefined],
  ];
  for (const [words, expected] of cases)
    it(`finds ${String(expected)} in: dispatch ${words.join(" ")}`, () => {
      assert.equal(commandWord(program, ["node", "dispatch", ...words]), expected);
    });
});
