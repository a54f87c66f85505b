// The one mapping from joi's failure details to the problem document's field errors (JSON pointers).
import type { ValidationError } from "joi";
import type { FieldError } from "../errors.js";

/** One pointer per failing field, `prefix` naming the request part (`""` for the body, `#/query` …). */
export const fieldErrors = (error: ValidationError, prefix = ""): FieldError[] =>
  error.details.map((d) => ({ pointer: `${prefix}/${d.path.join("/")}`, message: d.message }));
