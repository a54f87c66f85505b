// Builds the request of an operation from --data (file, stdin or inline JSON) and the command-line values.
import { readFileSync } from "node:fs";
import { usageError } from "./errors.js";
import { currentIo } from "./io.js";
import { coerceFlag } from "./flags.js";
import { expandInterval } from "./interval.js";
import type { FlagSpec, OperationSpec } from "./operation-spec.js";
import { overrideFor } from "./overrides.js";
import type { RequestParts } from "./validate.js";

/** `--data @file.json`, `--data -` (stdin) or inline JSON; must be a JSON object. */
export function readData(source: string): Record<string, unknown> {
  let text: string;
  try {
    text =
      source === "-"
        ? currentIo().readStdin()
        : source.startsWith("@")
          ? readFileSync(source.slice(1), "utf8")
          : source;
  } catch (err) {
    throw usageError(
      `--data: cannot read ${source.slice(1) || "stdin"} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw usageError(`--data is not valid JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw usageError("--data must be a JSON object");
  return parsed as Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function writeTarget(parts: RequestParts, flag: FlagSpec, value: unknown): void {
  if (flag.in !== "body") {
    (parts[flag.in] as Record<string, unknown>)[flag.target[0]] = flag.in === "query" ? value : String(value);
    return;
  }
  let node = (parts.body ??= {});
  for (const key of flag.target.slice(0, -1)) {
    const next = node[key];
    node = node[key] = isRecord(next) ? next : {};
  }
  node[flag.target.at(-1)!] = value;
}

/** Merges --data, the override defaults and the given values (keyed by flag name, an interval flag's value standing
 * for the two it sets); values win over --data. */
export function buildRequest(
  spec: OperationSpec,
  given: Record<string, unknown>,
  data: string | undefined,
): RequestParts {
  const override = overrideFor(spec.operationId);
  const { interval } = override;
  const raw = interval ? given[interval.flag] : undefined;
  const values = interval && typeof raw === "string" ? { ...given, ...expandInterval(spec, interval, raw) } : given;
  const body = data === undefined ? undefined : readData(data);
  const parts: RequestParts = {
    path: {},
    query: {},
    header: {},
    body: body ?? (spec.bodyContentType ? {} : undefined),
  };
  for (const [field, value] of Object.entries(override.defaults ?? {})) {
    if (parts.body && parts.body[field] === undefined) parts.body[field] = value;
  }
  for (const flag of spec.flags) {
    const raw = values[flag.flag];
    if (raw === undefined) continue;
    writeTarget(parts, flag, coerceFlag(flag, raw, override.json?.includes(flag.flag) ?? false));
  }
  return parts;
}
