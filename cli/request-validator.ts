// The ajv validator of a command's request schema (cli/generated/request-schemas.ts). From source it is compiled on
// the command's first run; the bundle (cli/build.ts) replaces this module with validators compiled at build time,
// one file per operation, so a command neither loads ajv nor compiles a schema.
import type { Options, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { requestSchemas } from "./generated/request-schemas.js";

/** The options both ways of compiling use: the same checks and the same error objects. */
export const ajvOptions = {
  // strict off: the contract's own keywords (x-pattern-description, discriminator …) are not validation.
  strict: false,
  verbose: true, // errors carry their schema and data: cli/validate.ts words them by the flag
  allErrors: true, // all: a oneOf's ruled-out variants show
} as const;

/** An ajv with the CLI's options and the formats plugin; `options` adds to them (the build's `code`). */
export function newAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ ...ajvOptions, ...options });
  formats.default(ajv); // `.default`: the plugin as both Node's CommonJS interop and esbuild's see it
  return ajv;
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/** The request validator of `operationId`. */
export function validatorFor(operationId: string): ValidateFunction {
  let validate = compiled.get(operationId);
  if (!validate) {
    ajv ??= newAjv();
    validate = ajv.compile(requestSchemas[operationId]);
    compiled.set(operationId, validate);
  }
  return validate;
}
