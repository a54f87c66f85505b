// Command-line flags derived from the configuration schema: one per environment variable (PORT <-> --port), so a
// variable added to server/config.ts is a flag too. Boolean variables become --name / --no-name.
import { Option } from "commander";
import type { Command } from "commander";
import { schema } from "../config.js";
import { meaningOf } from "../config-variables.js";

interface KeyDescription {
  type?: string;
  flags?: { default?: unknown };
}

/** PORT -> --port; the product prefix is dropped (DISPATCH_SANDBOX -> --sandbox, DISPATCH_FIXTURES -> --fixtures). */
export const flagName = (variable: string) =>
  variable
    .replace(/^DISPATCH_/, "")
    .toLowerCase()
    .replaceAll("_", "-");
const optionKey = (variable: string) => flagName(variable).replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function variables(): [string, KeyDescription][] {
  const { keys } = schema.describe() as { keys: Record<string, KeyDescription> };
  return Object.entries(keys);
}

/** Adds a flag for every configuration variable to `command`. */
export function addConfigFlags(command: Command): Command {
  for (const [variable, description] of variables()) {
    const flag = flagName(variable);
    const fallback = description.flags?.default;
    const shown = fallback === undefined ? "" : ` (default ${JSON.stringify(fallback)})`;
    const meaning = `${variable}: ${meaningOf(variable) ?? "see README"}`;
    if (description.type === "boolean") {
      command.addOption(new Option(`--${flag}`, `${meaning}${shown}`));
      command.addOption(new Option(`--no-${flag}`, `${variable}=false`));
    } else command.addOption(new Option(`--${flag} <value>`, `${meaning}${shown}`));
  }
  return command;
}

/** The environment with the flags given on the command line written over it. */
export function envWithFlags(
  options: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const merged = { ...env };
  for (const [variable] of variables()) {
    const value = options[optionKey(variable)] as string | boolean | undefined;
    if (value !== undefined) merged[variable] = String(value);
  }
  return merged;
}
