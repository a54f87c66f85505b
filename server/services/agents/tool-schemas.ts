// Input and output JSON Schemas of the capabilities and their input validation, both generated from
// openapi.yaml (server/generated/validators.ts): the MCP tools and A2A skills check what REST checks.
import type { ObjectSchema, Schema, ValidationError } from "joi";
import { operationSchemas, validators, type JsonSchema } from "../../generated/validators.js";
import { capabilities } from "./capabilities.js";
import { DomainError, type FieldError } from "../errors.js";

export type JsonObject = JsonSchema;
export type CapabilityId = (typeof capabilities)[number]["id"];
export interface CapabilitySchemas {
  input: JsonObject & { type: "object" };
  output: JsonObject & { type: "object" };
}

/** The contract's OrderId path parameter (components.parameters.OrderId), the one path parameter of a tool. */
const pathIdSchema = {
  type: "string",
  minLength: 1,
  maxLength: 100,
  description: "Order id (`ord_…`; over MCP the handle `dispatch-ord_…` is accepted too).",
};

/** An operation with a path `{id}` takes it as the tool's `id` argument beside its body. */
function withPathId(input: JsonObject, path: string): JsonObject {
  if (!path.includes("{id}")) return input;
  const properties = { id: pathIdSchema, ...(input.properties as Record<string, unknown>) };
  return { ...input, properties, required: ["id", ...((input.required as string[] | undefined) ?? [])] };
}

/** Every capability's schemas, keyed by capability id. */
export function deriveCapabilitySchemas(): Record<CapabilityId, CapabilitySchemas> {
  return Object.fromEntries(
    capabilities.map((c) => {
      const schemas = operationSchemas[c.rest.operationId];
      if (!schemas) throw new Error(`openapi.yaml has no operation ${c.rest.operationId} for capability ${c.id}`);
      return [c.id, { ...schemas, input: withPathId(schemas.input, c.rest.path) }];
    }),
  ) as Record<CapabilityId, CapabilitySchemas>;
}

/** The generated joi of a capability's input: its path parameters with its JSON body, or its query parameters. */
function joiInputOf(operationId: string): Schema | undefined {
  const parts = (validators as Record<string, { params?: Schema; payload?: Schema; query?: Schema }>)[operationId];
  const body = parts?.payload ?? parts?.query;
  if (parts?.params) return body ? (parts.params as ObjectSchema).concat(body as ObjectSchema) : parts.params;
  return body;
}

const fieldErrors = (error: ValidationError): FieldError[] =>
  error.details.map((d) => ({ pointer: `/${d.path.join("/")}`, message: d.message }));

/** Validates capability inputs against the contract; throws a `validation` DomainError (422 over REST). */
export function createInputValidator() {
  const byId = new Map(capabilities.map((c) => [c.id as string, joiInputOf(c.rest.operationId)]));
  return function validateInput(id: CapabilityId, input: unknown): Record<string, unknown> {
    const schema = byId.get(id);
    if (!schema) return (input ?? {}) as Record<string, unknown>;
    const { error, ...result } = schema.validate(input ?? {}, { abortEarly: false });
    if (error) {
      const errors = fieldErrors(error);
      throw new DomainError(
        "validation",
        "validation_failed",
        `Invalid ${id} input: ${errors.map((e) => `${e.pointer} ${e.message}`).join("; ")}`,
        { errors },
      );
    }
    return result.value as Record<string, unknown>;
  };
}
