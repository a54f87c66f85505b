// Checks a request against the command table's constraints before anything is sent (exit code 2).
import { usageError } from "./errors.js";
import type { FlagSpec, OperationSpec } from "./operation-spec.js";

export interface RequestParts {
  path: Record<string, string>;
  query: Record<string, unknown>;
  header: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

export function readTarget(parts: RequestParts, flag: FlagSpec): unknown {
  if (flag.in !== "body") return parts[flag.in][flag.target[0]];
  return flag.target.reduce<unknown>(
    (node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined),
    parts.body,
  );
}

const label = (flag: FlagSpec) => (flag.in === "path" ? `<${flag.flag}>` : `--${flag.flag}`);

function checkType(flag: FlagSpec, value: unknown): string | null {
  const expected: Record<string, (v: unknown) => boolean> = {
    integer: (v) => Number.isInteger(v),
    number: (v) => typeof v === "number",
    boolean: (v) => typeof v === "boolean",
    array: (v) => Array.isArray(v),
  };
  const check = expected[flag.type];
  return check && !check(value)
    ? `${label(flag)} must be ${flag.type === "integer" ? "an integer" : `a ${flag.type}`}`
    : null;
}

function checkBounds(flag: FlagSpec, value: unknown): string | null {
  if (flag.enum && !flag.enum.includes(value as string)) return `${label(flag)} must be one of ${flag.enum.join(", ")}`;
  if (typeof value === "string") {
    const { minLength: min, maxLength: max } = flag;
    const length = Array.from(value).length; // code points, as JSON Schema counts
    if (min !== undefined && min === max && length !== min) return `${label(flag)} must be exactly ${min} characters`;
    if (min !== undefined && length < min) return `${label(flag)} must be at least ${min} characters`;
    if (max !== undefined && length > max) return `${label(flag)} must be at most ${max} characters`;
    if (flag.pattern !== undefined && !new RegExp(flag.pattern, "u").test(value))
      return `${label(flag)} must be ${flag.patternDescription ?? `text matching ${flag.pattern}`}`;
  }
  if (typeof value === "number" && flag.minimum !== undefined && value < flag.minimum)
    return `${label(flag)} must be >= ${flag.minimum}`;
  if (typeof value === "number" && flag.maximum !== undefined && value > flag.maximum)
    return `${label(flag)} must be <= ${flag.maximum}`;
  return null;
}

/** Throws a usage error naming the first flag that is missing or out of bounds. */
export function validateRequest(spec: OperationSpec, parts: RequestParts): void {
  for (const flag of spec.flags) {
    const value = readTarget(parts, flag);
    if (value === undefined || value === null) {
      if (flag.required && (flag.in !== "body" || parts.body !== undefined)) {
        const hint = flag.enum ? ` (one of ${flag.enum.join(", ")})` : "";
        throw usageError(`missing required ${label(flag)}${hint}; see 'dispatch ${spec.command.join(" ")} --help'`);
      }
      continue;
    }
    const problem = checkType(flag, value);
    if (problem) throw usageError(`${problem} (got ${JSON.stringify(value)})`);
    // A repeatable flag (`--status dispatched,en_route`) is bounded item by item, by its items' enum.
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      const outOfBounds = checkBounds(flag, item);
      if (outOfBounds) throw usageError(`${outOfBounds} (got ${JSON.stringify(item)})`);
    }
  }
}
