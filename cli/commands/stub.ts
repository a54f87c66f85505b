// An operation named but not built: what a parent's help lists of it (name, arguments, `[options]`, summary), without
// its flags, examples or action. cli/program.ts builds only the command a command line runs; its siblings are stubs.
import { Help, type Command } from "commander";
import type { OperationSpec } from "../operation-spec.js";
import { ensureGroup } from "./groups.js";
import { addArguments, positionalNames, takesOptions } from "./operation.js";

/** Stubs whose built command would have options: their help line says `[options]` as commander's would. */
const withOptions = new WeakSet<Command>();

export function addOperationStub(root: Command, spec: OperationSpec): Command {
  const parent = ensureGroup(root, spec.command.slice(0, -1));
  const command = parent.command(spec.command.at(-1)!).summary(spec.summary);
  addArguments(command, spec, positionalNames(spec));
  if (takesOptions(spec)) withOptions.add(command);
  return command;
}

/** commander's `subcommandTerm` (`order [options]`), which counts options, for built commands and stubs alike. */
export function subcommandTerm(this: Help, command: Command): string {
  const term = Help.prototype.subcommandTerm.call(this, command);
  const unsaid = withOptions.has(command) && command.options.length === 0;
  return unsaid ? `${command.name()} [options]${term.slice(command.name().length)}` : term;
}
