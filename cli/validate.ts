// Checks a request against the contract before anything is sent (exit code 2): ajv over the command's request schema
// (cli/generated/request-schemas.ts, cut from the dereferenced contract), so the CLI refuses what the server would.
// ajv's errors are said in the CLI's words, naming the flag (`--zip`) rather than the JSON path.
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { usageError } from "./errors.js";
import { requestSchemas } from "./generated/request-schemas.js";
import type { FlagSpec, OperationSpec } from "./operation-spec.js";

export interface RequestParts {
  path: Record<string, string>;
  query: Record<string, unknown>;
  header: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/** Compiled on a command's first run only: `--help` and the other commands never pay for it. */
function validatorFor(operationId: string): ValidateFunction {
  let validate = compiled.get(operationId);
  if (!validate) {
    // strict off: the contract's own keywords (x-pattern-description, discriminator …) are not validation.
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, verbose: true });
      formats.default(ajv); // `.default`: the plugin as both Node's CommonJS interop and esbuild's see it
    }
    validate = ajv.compile(requestSchemas[operationId]);
    compiled.set(operationId, validate);
  }
  return validate;
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
      if (schema?.minLength === schema?.maxLength) return `must be exactly ${String(params.limit)} characters`;
      return `must be at ${error.keyword === "minLength" ? "least" : "most"} ${String(params.limit)} characters`;
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
      return `must have at ${error.keyword === "minItems" ? "least" : "most"} ${String(params.limit)} values`;
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
  if (error.keyword === "additionalProperties") return `${label} is not a field of this request`;
  return `${label} ${requirement(error)} (got ${JSON.stringify(error.data)})`;
}

/** Throws a usage error naming the first flag or --data field the contract refuses. */
export function validateRequest(spec: OperationSpec, parts: RequestParts): void {
  const validate = validatorFor(spec.operationId);
  if (validate(parts)) return;
  throw usageError(describe(spec, validate.errors![0]));
}
