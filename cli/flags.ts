// Command-line flags from the command table: commander options, help text, and value coercion.
import { Option } from "commander";
import { echoed, usageError } from "./errors.js";
import type { FlagSpec } from "./operation-spec.js";

/** How a flag's constraints read in `--help`. */
export function describeFlag(flag: FlagSpec): string {
  const notes: string[] = [];
  if (flag.required) notes.push("required");
  if (flag.enum) notes.push(`one of: ${flag.enum.join(", ")}`);
  if (flag.minLength !== undefined && flag.minLength === flag.maxLength) notes.push(`exactly ${flag.minLength} chars`);
  else {
    if (flag.minLength !== undefined && flag.minLength > 1) notes.push(`min ${flag.minLength} chars`);
    if (flag.maxLength !== undefined) notes.push(`max ${flag.maxLength} chars`);
  }
  if (flag.minimum !== undefined) notes.push(`>= ${flag.minimum}`);
  if (flag.maximum !== undefined) notes.push(`<= ${flag.maximum}`);
  if (flag.type === "array") notes.push("comma-separated or repeated");
  if (flag.default !== undefined) notes.push(`server default: ${JSON.stringify(flag.default)}`);
  if (flag.in === "header") notes.push(`header ${flag.target[0]}`);
  return notes.length ? `${flag.description} (${notes.join("; ")})` : flag.description;
}

const collect = (value: string, previous: string[] | undefined) => [
  ...(previous ?? []),
  ...value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean),
];

/** Commander options for one flag; booleans get a `--no-` twin so false can be sent. */
export function optionsFor(flag: FlagSpec): Option[] {
  const description = describeFlag(flag);
  if (flag.type === "boolean")
    return [
      new Option(`--${flag.flag}`, description),
      new Option(`--no-${flag.flag}`, `send ${flag.target.join(".")}: false`),
    ];
  const placeholder = flag.type === "integer" || flag.type === "number" ? "n" : flag.enum ? flag.flag : "value";
  const option = new Option(`--${flag.flag} <${placeholder}>`, description);
  return [flag.type === "array" ? option.argParser(collect) : option];
}

/** Converts a raw command-line string to the flag's JSON type. */
export function coerceFlag(flag: FlagSpec, raw: unknown, json: boolean): unknown {
  if (typeof raw !== "string") return raw;
  if (json) {
    try {
      return JSON.parse(raw);
    } catch {
      throw usageError(`--${flag.flag} must be JSON (got ${echoed(raw)})`);
    }
  }
  if (flag.type === "integer" || flag.type === "number") {
    const value = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(value) || (flag.type === "integer" && !Number.isInteger(value))) {
      throw usageError(
        `--${flag.flag} must be ${flag.type === "integer" ? "an integer" : "a number"} (got ${echoed(raw)})`,
      );
    }
    return value;
  }
  return raw;
}
