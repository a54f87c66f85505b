// `--help` text: the Examples section (built from the contract's request example for operations), kept per command
// so a test can run every one, and the contract's markdown as plain text.
import { Help, type Command } from "commander";
import { operations } from "./generated/operations.js";
import type { OperationSpec } from "./operation-spec.js";
import { overrideFor, type CommandOverride } from "./overrides.js";

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

/** With an interval flag (`--window`), the command with it: the path, the required flags of the contract's example
 * and the interval as the override's `exampleArgs` give it (START/END, or START alone). */
function intervalExample(spec: OperationSpec, { interval, exampleArgs = {} }: CommandOverride): string[] {
  const word = interval && exampleArgs[interval.flag];
  if (!interval || word === undefined) return [];
  const example = JSON.parse(JSON.stringify(spec.example ?? {})) as Record<string, unknown>;
  const words = [`dispatch ${spec.command.join(" ")}`];
  for (const flag of spec.flags.filter((f) => f.required && f.in !== "body"))
    words.push(...(flag.in === "path" ? [] : [`--${flag.flag}`]), exampleArgs[flag.flag] ?? `<${flag.flag}>`);
  for (const flag of spec.flags.filter((f) => f.required && f.in === "body")) {
    const value = removeAt(example, flag.target);
    if (value !== undefined && flag.flag !== interval.start && flag.flag !== interval.end)
      words.push(...flagWords(flag.flag, value, false));
  }
  return [[...words, `--${interval.flag}`, word].join(" ")];
}

/**
 * Example command lines, each runnable as printed: path and required query values from the override's `exampleArgs`
 * (shell variables such as "$ORDER_ID" for ids the reader has), flags from the contract's request example, the rest
 * of the example as --data; then the whole body as --data JSON.
 */
export function buildExamples(spec: OperationSpec): string[] {
  const override = overrideFor(spec.operationId);
  const rest = JSON.parse(JSON.stringify(spec.example ?? {})) as Record<string, unknown>;
  const command = `dispatch ${spec.command.join(" ")}`;
  const words = [command];
  for (const flag of spec.flags.filter((f) => f.in === "path"))
    words.push(override.exampleArgs?.[flag.flag] ?? `<${flag.flag}>`);
  for (const name of override.positional ?? []) words.push(shellQuote(String(rest[name] ?? `<${name}>`))); // eslint-disable-line @typescript-eslint/no-base-to-string -- example positionals are scalars
  for (const name of override.positional ?? []) Reflect.deleteProperty(rest, name);
  const given: string[] = [];
  for (const flag of spec.flags.filter((f) => f.in === "query" && f.required))
    given.push(`--${flag.flag}`, override.exampleArgs?.[flag.flag] ?? `<${flag.flag}>`);
  for (const flag of spec.flags.filter((f) => f.in === "body" && !override.positional?.includes(f.flag))) {
    const value = removeAt(rest, flag.target);
    const word = override.exampleArgs?.[flag.flag];
    if (word !== undefined) given.push(`--${flag.flag}`, word);
    if (value === undefined || word !== undefined || override.defaults?.[flag.target[0]] === value) continue;
    words.push(...flagWords(flag.flag, value, override.json?.includes(flag.flag) ?? false));
  }
  words.push(...given);
  if (Object.keys(rest).length > 0) words.push("--data", shellQuote(JSON.stringify(rest)));
  const examples = [words.join(" "), ...intervalExample(spec, override)];
  // A positional body field (`probe <url>`) cannot come from --data, so such a command shows another format instead.
  if (spec.bodyContentType !== "application/json" || !spec.example || override.positional)
    return [...examples, `${examples[0]} --output ${spec.bodyContentType ? "yaml" : "table"}`];
  // The same request as a JSON body; flags given beside --data override its fields.
  const body = JSON.parse(JSON.stringify(spec.example)) as Record<string, unknown>;
  for (const flag of spec.flags.filter((f) => f.in === "body" && override.exampleArgs?.[f.flag] !== undefined))
    removeAt(body, flag.target);
  const pathWords = words.slice(1, 1 + spec.flags.filter((f) => f.in === "path").length);
  return [
    ...examples,
    [command, ...pathWords, "--data", shellQuote(JSON.stringify(body)), ...given, "--output", "yaml"].join(" "),
  ];
}

export function examplesHelp(examples: readonly string[]): string {
  return `\nExamples:\n${examples.map((e) => `  $ ${e}`).join("\n")}\n`;
}

const examplesByCommand = new WeakMap<Command, () => readonly string[]>();

/**
 * Adds the Examples section to a command's help. `preface` goes before it. The examples stay readable with
 * examplesOf(), which test/cli/help-examples.test.ts uses to run every one against a server.
 */
export function addExamples(command: Command, examples: readonly string[] | (() => readonly string[]), preface = "") {
  const list = typeof examples === "function" ? examples : () => examples;
  examplesByCommand.set(command, list);
  command.addHelpText("after", () => `${preface ? `\n${preface}` : ""}${examplesHelp(list())}`);
}

/** The examples a command's help shows (none for a command without an Examples section). */
export function examplesOf(command: Command): readonly string[] {
  return examplesByCommand.get(command)?.() ?? [];
}

// operationIds are the contract's names; the terminal knows the commands (`listEvents` → `dispatch events list`).
// Built on first use, not at import: most runs print no help.
let operationIds: { commandOf: Map<string, string>; pattern: RegExp } | undefined;
function operationIdNames() {
  if (operationIds) return operationIds;
  const commandOf = new Map(operations.map((o) => [o.operationId, `dispatch ${o.command.join(" ")}`]));
  return (operationIds = { commandOf, pattern: new RegExp(`\\b(${[...commandOf.keys()].join("|")})\\b`, "g") });
}

/** Each operationId in `text` as the command that runs it (`listEvents` → `dispatch events list`): the server's
 * messages name operations by the contract's ids. */
export function withCommandNames(text: string): string {
  const { commandOf, pattern } = operationIdNames();
  return text.replace(pattern, (id: string) => commandOf.get(id) ?? id);
}

/** The contract's CommonMark as plain terminal text: no emphasis marks, backticks or link syntax. */
export function plainText(markdown: string): string {
  return withCommandNames(
    markdown
      .replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_, text: string, url: string) =>
        url.startsWith("#") ? text : `${text} (${url})`,
      )
      .replace(/`([^`\n]+)`/g, "$1")
      .replace(/(\*\*|__)(?=\S)([^\n]*?\S)\1/g, "$2")
      .replace(/(^|[\s(])\*(?=\S)([^*\n]*?\S)\*(?=[\s.,;:)]|$)/gm, "$1$2")
      .replace(/^#{1,6}\s+/gm, "")
      .replace(/^(\s*)\* /gm, "$1- "),
  );
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
