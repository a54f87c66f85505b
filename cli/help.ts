// `--help` text: the Examples section built from the contract's request example, and the contract's markdown as plain text.
import { Help } from "commander";
import { operations } from "./generated/operations.js";
import type { OperationSpec } from "./operation-spec.js";
import { overrideFor } from "./overrides.js";

/** Quotes a value for a POSIX shell only when it needs it. */
export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function removeAt(node: Record<string, unknown>, target: readonly string[]): unknown {
  const [head, ...rest] = target;
  const value = node[head];
  if (rest.length === 0) {
    Reflect.deleteProperty(node, head);
    return value;
  }
  if (!value || typeof value !== "object") return undefined;
  const inner = removeAt(value as Record<string, unknown>, rest);
  if (Object.keys(value).length === 0) Reflect.deleteProperty(node, head);
  return inner;
}

function flagWords(flag: string, value: unknown, json: boolean): string[] {
  if (json) return [`--${flag}`, shellQuote(JSON.stringify(value))];
  if (typeof value === "boolean") return [value ? `--${flag}` : `--no-${flag}`];
  if (Array.isArray(value)) return [`--${flag}`, shellQuote(value.join(","))];
  return [`--${flag}`, shellQuote(String(value))];
}

/** Example command lines: positionals and flags from the example, the rest of the example as --data. */
export function buildExamples(spec: OperationSpec): string[] {
  const override = overrideFor(spec.operationId);
  const rest = JSON.parse(JSON.stringify(spec.example ?? {})) as Record<string, unknown>;
  const words = [`dispatch ${spec.command.join(" ")}`];
  for (const flag of spec.flags.filter((f) => f.in === "path")) words.push(`<${flag.flag}>`);
  for (const name of override.positional ?? []) words.push(shellQuote(String(rest[name] ?? `<${name}>`))); // eslint-disable-line @typescript-eslint/no-base-to-string -- example positionals are scalars
  for (const name of override.positional ?? []) Reflect.deleteProperty(rest, name);
  for (const flag of spec.flags.filter((f) => f.in === "body" && !override.positional?.includes(f.flag))) {
    const value = removeAt(rest, flag.target);
    if (value === undefined || override.defaults?.[flag.target[0]] === value) continue;
    words.push(...flagWords(flag.flag, value, override.json?.includes(flag.flag) ?? false));
  }
  if (Object.keys(rest).length > 0) words.push("--data", shellQuote(JSON.stringify(rest)));
  const examples = [words.join(" ")];
  if (spec.bodyContentType === "application/json")
    examples.push(`dispatch ${spec.command.join(" ")} --data @request.json --output yaml`);
  else examples.push(`dispatch ${spec.command.join(" ")} --output table`);
  return examples;
}

export function examplesHelp(examples: string[]): string {
  return `\nExamples:\n${examples.map((e) => `  $ ${e}`).join("\n")}\n`;
}

// operationIds are the contract's names; the terminal knows the commands (`listEvents` → `dispatch events list`).
// Built on first use, not at import: most runs print no help.
let operationIds: { commandOf: Map<string, string>; pattern: RegExp } | undefined;
function operationIdNames() {
  if (operationIds) return operationIds;
  const commandOf = new Map(operations.map((o) => [o.operationId, `dispatch ${o.command.join(" ")}`]));
  return (operationIds = { commandOf, pattern: new RegExp(`\\b(${[...commandOf.keys()].join("|")})\\b`, "g") });
}

/** The contract's CommonMark as plain terminal text: no emphasis marks, backticks or link syntax. */
export function plainText(markdown: string): string {
  const { commandOf, pattern } = operationIdNames();
  return markdown
    .replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_, text: string, url: string) =>
      url.startsWith("#") ? text : `${text} (${url})`,
    )
    .replace(/`([^`\n]+)`/g, "$1")
    .replace(/(\*\*|__)(?=\S)([^\n]*?\S)\1/g, "$2")
    .replace(/(^|[\s(])\*(?=\S)([^*\n]*?\S)\*(?=[\s.,;:)]|$)/gm, "$1$2")
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/^(\s*)\* /gm, "$1- ")
    .replace(pattern, (id: string) => commandOf.get(id) ?? id);
}

/** `configureHelp` hooks that pass every description commander prints through plainText. */
export const plainHelp: Partial<Help> = {
  commandDescription(command) {
    return plainText(Help.prototype.commandDescription.call(this, command));
  },
  subcommandDescription(command) {
    return plainText(Help.prototype.subcommandDescription.call(this, command));
  },
  optionDescription(option) {
    return plainText(Help.prototype.optionDescription.call(this, option));
  },
  argumentDescription(argument) {
    return plainText(Help.prototype.argumentDescription.call(this, argument));
  },
};
