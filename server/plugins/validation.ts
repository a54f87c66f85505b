// joi failures become DomainErrors with one JSON pointer per field (mapped to HTTP by plugins/errors.ts).
import type { Lifecycle, Request } from "@hapi/hapi";
import type { ValidationError } from "joi";
import { DomainError } from "../services/errors.js";
import { fieldErrors } from "../services/shared/field-errors.js";

// Where each request part points: the body at the root, the others under `#/<part>` (Problem.errors).
const sources: Record<string, string> = { payload: "", query: "#/query", params: "#/path", headers: "#/headers" };

/** Default failAction: 422 with every failing field. */
export const validationFailAction: Lifecycle.Method = (request: Request, _h, err) => {
  const error = err as ValidationError & { output?: { payload?: { validation?: { source?: string } } } };
  const source = error.output?.payload?.validation?.source ?? "payload";
  const errors = error.details ? fieldErrors(error, sources[source]) : [];
  // An array, string, number or null where the contract wants an object is a malformed body, not a field error.
  if (source === "payload" && error.details?.some((d) => d.path.length === 0 && d.type === "object.base"))
    throw new DomainError("bad_request", "malformed_body", "The body must be a JSON object.");
  throw new DomainError(
    "validation",
    "validation_failed",
    errors.length === 1 ? errors[0].message : `${errors.length} fields are invalid.`,
    { errors },
  );
};

/** True when the request says it carries a body (a length above 0, or chunks): Hapi parses both none and `null` as null. */
export const declaresBody = (headers: Record<string, string | string[] | undefined> | undefined): boolean =>
  Number(headers?.["content-length"] ?? 0) > 0 || headers?.["transfer-encoding"] !== undefined;
