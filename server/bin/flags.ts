// Command-line flags derived from the configuration's definition: one per environment variable (PORT <-> --port),
// described by its documented meaning and default, so a variable added to server/config.ts is a flag too. Boolean
// variables become --name / --no-name.
import { Option } from "commander";
import type { Command } from "commander";
import { variables } from "../config.js";
import { helpTexts } from "../config-variables.js";

/** PORT -> --port; the product prefix is dropped (DISPATCH_SANDBOX -> --sandbox, DISPATCH_FIXTURES -> --fixtures). */
export const flagName = (variable: string) =>
  variable
    .replace(/^DISPATCH_/, "")
    .toLowerCase()
    .replaceAll("_", "-");
const optionKey = (variable: string) => flagName(variable).replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Adds a flag for every configuration variable to `command`, in the documented order. */
export function addConfigFlags(command: Command): Command {
  for (const { variable, help } of helpTexts(variables)) {
    const flag = flagName(variable.name);
    if (variable.schema.type === "boolean") {
      command.addOption(new Option(`--${flag}`, help));
      command.addOption(new Option(`--no-${flag}`, `${variable.name}=false`));
    } else command.addOption(new Option(`--${flag} <value>`, help));
  }
  return command;
}

/** The environment with the flags given on the command line written over it. */
export function envWithFlags(
  options: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const merged = { ...env };
  for (const { name } of variables) {
    const value = options[optionKey(name)] as string | boolean | undefined;
    if (value !== undefined) merged[name] = String(value);
  }
  return merged;
}
