// Input and output JSON Schemas of the capabilities and their input validation, both generated from
// openapi.yaml (server/generated/validators.ts): the MCP tools and A2A skills check what REST checks.
import type { ObjectSchema, Schema } from "joi";
import { operationSchemas, validators, type JsonSchema } from "../../generated/validators.js";
import { capabilities } from "./capabilities.js";
import { DomainError } from "../errors.js";
import { countMessages, fieldErrors } from "../shared/field-errors.js";
import { isRecord } from "../shared/is-record.js";
import type { PathParams, ValidBody, ValidQuery } from "../../types/contract.js";

export type JsonObject = JsonSchema;
export type CapabilityId = (typeof capabilities)[number]["id"];
type OperationOf<Id extends CapabilityId> = Extract<(typeof capabilities)[number], { id: Id }>["rest"]["operationId"];
/** A part the operation lacks (never in the contract's types) adds nothing. */
type Part<T> = [T] extends [never] ? unknown : T;
/** A capability's input after validation: the operation's path parameters with its body, or with its query. */
export type CapabilityInput<Id extends CapabilityId> = Part<PathParams<OperationOf<Id>>> &
  Part<ValidBody<OperationOf<Id>>> &
  Part<ValidQuery<OperationOf<Id>>>;
/** A validated call: switching on `id` gives its input's type. */
export type CapabilityCall = { [Id in CapabilityId]: { id: Id; input: CapabilityInput<Id> } }[CapabilityId];
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
  const properties = { id: pathIdSchema, ...(isRecord(input.properties) ? input.properties : {}) };
  const required = Array.isArray(input.required) ? input.required.filter((r) => typeof r === "string") : [];
  return { ...input, properties, required: ["id", ...required] };
}

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
const operations: Partial<Record<string, { params?: ObjectSchema; payload?: Schema; query?: ObjectSchema }>> =
  validators;

const isObjectSchema = (schema: Schema): schema is ObjectSchema => schema.type === "object";

function joiInputOf(operationId: string): ObjectSchema | undefined {
  const parts = operations[operationId];
  const body = parts?.payload ?? parts?.query;
  // A tool's input is one object (MCP's inputSchema is `type: object`); a oneOf body cannot be a capability.
  if (body && !isObjectSchema(body)) throw new Error(`${operationId}'s body is not one object; no tool can take it`);
  if (parts?.params) return body ? parts.params.concat(body) : parts.params;
  return body;
}

/** Validates capability inputs against the contract; throws a `validation` DomainError (422 over REST). */
export function createInputValidator() {
  const byId = new Map<string, ObjectSchema | undefined>(
    capabilities.map((c) => [c.id, joiInputOf(c.rest.operationId)]),
  );
  return function validateInput(id: CapabilityId, input: unknown): CapabilityCall {
    const schema = byId.get(id);
    const { error, ...result } = schema
      ? schema.validate(input ?? {}, { abortEarly: false, messages: countMessages })
      : { error: undefined, value: {} }; // an operation without parameters or body
    if (error) {
      const errors = fieldErrors(error);
      throw new DomainError(
        "validation",
        "validation_failed",
        `Invalid ${id} input: ${errors.map((e) => `${e.pointer} ${e.message}`).join("; ")}`,
        { errors },
      );
    }
    // The generated joi is untyped; it has just checked the value against CapabilityInput's schemas.
    return { id, input: result.value };
  };
}

/** Over MCP an order's handle is `dispatch-{id}` (spec §2.1): what dispatch.order answers as its `order.id`. */
export const orderHandleOf = (id: string) => `dispatch-${id}`;

/** The order id a handle names; anything else as it is (`ord_…` is accepted wherever a handle is). */
export const orderIdOfHandle = (value: string) => value.replace(/^dispatch-/, "");

const pathValueOf = (name: string, value: unknown) =>
  name === "id" && typeof value === "string" ? orderIdOfHandle(value) : value;

/** A capability's validated input as request parts: the path's `{names}` are params, the rest query or JSON body. */
export function operationInputOf(operationId: string, path: string, input: Record<string, unknown>) {
  const names = new Set([...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]));
  const params: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input))
    if (names.has(name)) params[name] = pathValueOf(name, value);
    else rest[name] = value;
  const takesQuery = Boolean(operations[operationId]?.query);
  return { params, query: takesQuery ? rest : {}, payload: takesQuery ? null : rest };
}
