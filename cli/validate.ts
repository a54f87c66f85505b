// Checks a request against the contract before anything is sent (exit code 2): ajv over the command's request schema
// (cli/generated/request-schemas.ts, cut from the dereferenced contract), so the CLI refuses what the server would.
// ajv's errors are said in the CLI's words, naming the flag (`--zip`) rather than the JSON path.
import type { ErrorObject } from "ajv";
import { echoed, usageError } from "./errors.js";
import type { FlagSpec, OperationSpec } from "./operation-spec.js";
import { validatorFor } from "./request-validator.js";

export interface RequestParts {
  path: Record<string, string>;
  query: Record<string, unknown>;
  header: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

/** JSON pointer segments of where the error is, with the missing or unknown property appended. */
function locate(error: ErrorObject): string[] {
  const at = error.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const property = params.missingProperty ?? params.additionalProperty;
  return property === undefined ? at : [...at, property];
}

/** The flag a location belongs to (an array item belongs to its repeatable flag), else the field inside --data. */
function labelOf(spec: OperationSpec, [where, ...rest]: string[]): { label: string; flag?: FlagSpec } {
  const field = rest.filter((s, i) => !(/^\d+$/.test(s) && i === rest.length - 1));
  const flag = spec.flags.find((f) => f.in === where && f.target.join("/") === field.join("/"));
  if (flag) return { label: flag.in === "path" ? `<${flag.flag}>` : `--${flag.flag}`, flag };
  return { label: `--data field ${rest.join(".")}` };
}

const article = (type: string) => (type === "integer" || type === "array" || type === "object" ? "an" : "a");

/** "1 character", "5000 characters". */
const counted = (limit: unknown, noun: string) => `${String(limit)} ${noun}${limit === 1 ? "" : "s"}`;

/** What a value must be, in words, for the keywords a flag's values fail on. */
function requirement(error: ErrorObject): string {
  const schema = error.parentSchema;
  const params = error.params;
  switch (error.keyword) {
    case "type": {
      const type = String(params.type).split(",")[0];
      return `must be ${article(type)} ${type}`;
    }
    case "enum":
      return `must be one of ${(params.allowedValues as unknown[]).join(", ")}`;
    case "minLength":
    case "maxLength":
      if (schema?.minLength === schema?.maxLength) return `must be exactly ${counted(params.limit, "character")}`;
      return `must be at ${error.keyword === "minLength" ? "least" : "most"} ${counted(params.limit, "character")}`;
    case "pattern": {
      const described: unknown = schema?.["x-pattern-description"];
      return `must be ${typeof described === "string" ? described : `text matching ${String(params.pattern)}`}`;
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${String(params.comparison)} ${String(params.limit)}`;
    case "minItems":
    case "maxItems":
      return `must have at ${error.keyword === "minItems" ? "least" : "most"} ${counted(params.limit, "value")}`;
    case "uniqueItems":
      return "must not repeat a value";
    case "const":
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case "format":
      return `must be a valid ${String(params.format)}`;
    default:
      return error.message ?? "is invalid";
  }
}

function describe(spec: OperationSpec, error: ErrorObject): string {
  const { label, flag } = labelOf(spec, locate(error));
  if (error.keyword === "required") {
    const hint = flag?.enum ? ` (one of ${flag.enum.join(", ")})` : "";
    return `missing required ${label}${hint}; see 'dispatch ${spec.command.join(" ")} --help'`;
  }
  if (error.keyword === "additionalProperties")
    return variantOf(error)
      ? `${label} does not go with the other fields given; see 'dispatch ${spec.command.join(" ")} --help'`
      : `${label} is not a field of this request`;
  return `${label} ${requirement(error)} (got ${echoed(error.data)})`;
}

/** The oneOf variant an error is inside (its schema path up to `oneOf/<n>`), if any. */
const variantOf = (error: ErrorObject) => /^(.*\/oneOf\/\d+)\//.exec(error.schemaPath)?.[1];

/** The error worth reporting: in a oneOf, a variant whose tag (`const`) the request does not carry is not the one
 * meant (a `--status completed` report is not told it lacks `--estimated-arrival-at`), nor is oneOf's own summary. */
function relevantError(errors: ErrorObject[]): ErrorObject {
  const ruledOut = errors
    .filter((e) => e.keyword === "const")
    .map(variantOf)
    .filter(Boolean);
  const meant = errors.filter((e) => e.keyword !== "oneOf" && !ruledOut.includes(variantOf(e)));
  return meant[0] ?? errors[0];
}

/** Throws a usage error naming the first flag or --data field the contract refuses. */
export function validateRequest(spec: OperationSpec, parts: RequestParts): void {
  const validate = validatorFor(spec.operationId);
  if (validate(parts)) return;
  throw usageError(describe(spec, relevantError(validate.errors!)));
}
