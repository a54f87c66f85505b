// `dispatch <command> --help` for every command: each group says what it is for, each flag and argument has a real
// sentence (not its own name), and no description stops mid-sentence.
import assert from "node:assert/strict";
import type { Command } from "commander";
import { runCli } from "../../cli/index.js";
import { buildProgram } from "../../cli/program.js";

/** Every command's words, groups included, from the whole program (what `dispatch completion` builds). */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return command.commands.flatMap((sub) => {
    const words = [...path, sub.name()];
    return [words, ...commandPaths(sub, words)];
  });
}

interface HelpEntry {
  section: string;
  term: string;
  description: string;
}

/** The entries of a help text's sections (`Commands:`, `Options:`, `Arguments:` …), one per line at this width. */
function helpEntries(help: string): HelpEntry[] {
  const entries: HelpEntry[] = [];
  let section = "";
  for (const line of help.split("\n")) {
    const heading = /^(\S[^:]*):$/.exec(line);
    if (heading) section = heading[1];
    const entry = /^ {2}(\S(?:.*?\S)?)(?: {2,}(.*))?$/.exec(line);
    if (section && entry && !line.startsWith("  $ "))
      entries.push({ section, term: entry[1], description: entry[2] ?? "" });
  }
  return entries;
}

/** A description that is only the name it describes: "note" for --note, "client_name" for --client-name. */
function isOwnName(term: string, description: string): boolean {
  const names = [...term.matchAll(/--?(?:no-)?([\w-]+)|^[<[]?([\w-]+)/g)].map((m) => m[1] ?? m[2]);
  const squash = (s: string) => s.toLowerCase().replace(/[\s._-]/g, "");
  const said = squash(description.replace(/\s*\([^)]*\)\s*$/, "")); // the notes commander or we add in brackets
  return said === "" || names.some((name) => squash(name) === said || said.endsWith(`.${squash(name)}`));
}

const danglingWord =
  /\b(a|an|the|and|or|of|to|for|with|in|on|by|at|from|that|which|is|are|its|their|as|than|but|\w+'s)$/i;

/** Why a description looks cut off mid-sentence, if it does. */
function cutOff(description: string): string | undefined {
  const text = description.trim();
  if (/[,;:(\-–—]$/.test(text)) return "ends with a separator";
  if (danglingWord.test(text)) return "ends with a word that starts a phrase";
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  if (count(/\(/g) !== count(/\)/g)) return "unbalanced brackets";
  if (count(/`/g) % 2) return "an unclosed backtick";
  return undefined;
}

describe("cli --help text", function () {
  this.timeout(120_000);
  const program = buildProgram("0.0.0", () => Promise.resolve());
  const paths = commandPaths(program);

  it("finds every command, groups included", () => {
    const names = paths.map((p) => p.join(" "));
    for (const expected of ["orders", "orders revisions", "offers", "jobs", "sandbox clock", "quote", "config set"])
      assert.ok(names.includes(expected), expected);
  });

  describe("the checks themselves", () => {
    it("tell a flag described by its own name", () => {
      assert.ok(isOwnName("--note <value>", "note (max 1000 chars)"));
      assert.ok(isOwnName("--client-name <value>", "client_name (max 200 chars)"));
      assert.ok(isOwnName("--hourly-rate-cents <n>", "hourly_rate_cents (>= 1)"));
      assert.ok(isOwnName("--emergency-capable", "emergency_capable"));
      assert.ok(isOwnName("value", ""));
      assert.ok(!isOwnName("--note <value>", "Free text kept with the cancellation. (max 2000 chars)"));
    });

    it("tell text cut off mid-sentence", () => {
      assert.ok(cutOff("Test keys only (a live key sending it gets 422): the path the sandbox's"));
      assert.ok(cutOff("A report from the field, one shape per `status`: `en_route` with it, `on_site` alone,"));
      assert.ok(cutOff("A time (in its offset"));
      assert.equal(cutOff("The final cost, at most the order's not-to-exceed. (>= 0)"), undefined);
    });
  });

  for (const words of [[], ...paths]) {
    const line = ["dispatch", ...words, "--help"].join(" ");
    it(`${line}: groups say what they are for, flags have sentences, nothing is cut off`, async () => {
      // A wide terminal, so commander prints each entry on one line.
      const run = await runCli([...words, "--help"], { env: {}, tty: { columns: 4000 } });
      assert.equal(run.code, 0, run.stderr);
      const problems: string[] = [];
      for (const { section, term, description } of helpEntries(run.stdout)) {
        if (section === "Commands" && /\bcommands$/i.test(description))
          problems.push(`group ${term}: "${description}" says only that it has commands`);
        if (/Options|Arguments/.test(section) && isOwnName(term, description))
          problems.push(`${term}: described by its own name ("${description}")`);
        const why = cutOff(description);
        if (why) problems.push(`${term}: ${why}: "${description}"`);
      }
      assert.deepEqual(problems, []);
    });
  }
});
