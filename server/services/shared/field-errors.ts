// The one mapping from joi's failure details to the problem document's field errors (JSON pointers), and the
// wording of joi's counts that every validator of requests uses.
import type { LanguageMessages, ValidationError } from "joi";
import type { FieldError } from "../errors.js";

const plural = (noun: string) => `${noun}{if(#limit == 1, "", "s")}`;

/** joi's messages for lengths and counts, in the singular for 1 ("at least 1 item", not "1 items"). */
export const countMessages: LanguageMessages = {
  "string.min": `{{#label}} length must be at least {{#limit}} ${plural("character")} long`,
  "string.max": `{{#label}} length must be less than or equal to {{#limit}} ${plural("character")} long`,
  "string.length": `{{#label}} length must be {{#limit}} ${plural("character")} long`,
  "array.min": `{{#label}} must contain at least {{#limit}} ${plural("item")}`,
  "array.max": `{{#label}} must contain less than or equal to {{#limit}} ${plural("item")}`,
  "array.length": `{{#label}} must contain {{#limit}} ${plural("item")}`,
  "object.max": `{{#label}} must have less than or equal to {{#limit}} ${plural("key")}`,
};

/** One pointer per failing field, `prefix` naming the request part (`""` for the body, `#/query` …). */
export const fieldErrors = (error: ValidationError, prefix = ""): FieldError[] =>
  error.details.map((d) => ({ pointer: `${prefix}/${d.path.join("/")}`, message: d.message }));
