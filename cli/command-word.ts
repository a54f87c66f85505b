// The top-level command a command line runs, found before the command tree is built so that only that branch is
// built in full (cli/program.ts): `dispatch --help` then costs little more than starting Node.
import type { Command } from "commander";

/**
 * The operands commander's root parse finds: it skips its own options (with their values) and, at the first option
 * it does not know, hands that and the rest to the subcommand; everything after `--` is an operand.
 */
function rootOperands(program: Command, words: readonly string[]): string[] {
  const takesValue = new Map<string, "required" | "optional" | false>();
  for (const option of program.options) {
    const kind = option.required ? "required" : option.optional ? "optional" : false;
    for (const flag of [option.short, option.long]) if (flag) takesValue.set(flag, kind);
  }
  const operands: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "--") return [...operands, ...words.slice(i + 1)];
    if (!word.startsWith("-") || word === "-") {
      operands.push(word);
      continue;
    }
    const flag = /^--[^=]+(?==)|^-[^-]/.exec(word)?.[0] ?? word; // `--output=json`, `-ojson`: value attached
    const kind = takesValue.get(flag);
    if (kind === undefined) break;
    const next = words[i + 1] as string | undefined;
    if (flag === word && (kind === "required" || (kind === "optional" && next !== undefined && !next.startsWith("-"))))
      i++;
  }
  return operands;
}

/** The top-level command that runs (for `help <command>`, that command); undefined for the program itself. */
export function commandWord(program: Command, argv: readonly string[]): string | undefined {
  const [first, second] = rootOperands(program, argv.slice(2));
  return first === "help" ? (second ?? first) : first;
}

/**
 * The words of the command that runs or whose help shows: group words while `isGroup` says so, then the command
 * (`orders get ord_1` → orders get); `help <word>` at any level names <word> (`jobs help list` → jobs list). Empty for
 * the program itself and for a bare `help`.
 */
export function commandPath(
  program: Command,
  argv: readonly string[],
  isGroup: (words: readonly string[]) => boolean,
): string[] {
  const operands = rootOperands(program, argv.slice(2));
  const path: string[] = [];
  for (let i = 0; i < operands.length; i++) {
    if (operands[i] === "help") return operands[i + 1] === undefined ? path : [...path, operands[i + 1]];
    path.push(operands[i]);
    if (!isGroup(path)) break;
  }
  return path;
}
