// Input and output JSON Schemas of the six capabilities, derived from openapi.yaml at startup (one source of
// truth for the MCP tools and A2A skills), plus input validation against them.
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { deref, listOperations, loadContract, type JsonObject } from "../../../sdk/codegen/contract.js";
import { capabilities } from "./capabilities.js";
import { DomainError, type FieldError } from "../errors.js";

export type CapabilityId = (typeof capabilities)[number]["id"];
export interface CapabilitySchemas {
  input: JsonObject & { type: "object" };
  output: JsonObject & { type: "object" };
}

/** Input schema: the JSON request body, or an object of the query parameters (getEvals' `period`). */
function inputOf(doc: JsonObject, operation: JsonObject): CapabilitySchemas["input"] {
  const body = (operation.requestBody as JsonObject | undefined)?.content as
    Record<string, { schema: unknown }> | undefined;
  if (body?.["application/json"]) return deref(doc, body["application/json"].schema) as CapabilitySchemas["input"];
  const params = ((operation.parameters ?? []) as JsonObject[])
    .map((p) => deref(doc, p) as JsonObject)
    .filter((p) => p.in === "query");
  const required = params.filter((p) => p.required).map((p) => p.name as string);
  return {
    type: "object",
    properties: Object.fromEntries(
      params.map((p) => [
        p.name as string,
        { ...(p.schema as JsonObject), ...(p.description ? { description: p.description } : {}) },
      ]),
    ),
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/** Output schema: the 2xx JSON body; several 2xx bodies (createOrder's 201 and 202) become a oneOf. */
function outputOf(doc: JsonObject, operation: JsonObject): CapabilitySchemas["output"] {
  const bodies = Object.entries(operation.responses as Record<string, JsonObject>)
    .filter(([status]) => /^2\d\d$/.test(status))
    .map(([, response]) => deref(doc, response) as JsonObject)
    .map(
      (response) =>
        (response.content as Record<string, { schema: JsonObject }> | undefined)?.["application/json"]?.schema,
    )
    .filter((schema): schema is JsonObject => Boolean(schema));
  if (bodies.length === 1) return bodies[0] as CapabilitySchemas["output"];
  return { type: "object", oneOf: bodies };
}

/** Every capability's schemas, keyed by capability id. */
export function deriveCapabilitySchemas(doc: JsonObject = loadContract()): Record<CapabilityId, CapabilitySchemas> {
  const operations = new Map(listOperations(doc).map((o) => [o.operationId, o.operation]));
  return Object.fromEntries(
    capabilities.map((c) => {
      const operation = operations.get(c.rest.operationId);
      if (!operation) throw new Error(`openapi.yaml has no operation ${c.rest.operationId} for capability ${c.id}`);
      return [c.id, { input: inputOf(doc, operation), output: outputOf(doc, operation) }];
    }),
  ) as Record<CapabilityId, CapabilitySchemas>;
}

/** Fills `default`s of absent properties (urgency, period), as the REST validation does. */
function withDefaults(schema: JsonObject, value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value) || !schema.properties) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, prop] of Object.entries(schema.properties as Record<string, JsonObject>)) {
    if (out[name] === undefined && prop.default !== undefined) out[name] = prop.default;
    else if (out[name] !== undefined) out[name] = withDefaults(prop, out[name]);
  }
  return out;
}

/** Ajv's errorsText ("data/location/state must …, data must …") as field errors with JSON pointers. */
function fieldErrors(text: string): FieldError[] {
  return [...text.matchAll(/(?:^|, )data(\S*) ([^]*?)(?=, data|$)/g)].map((m) => ({
    pointer: m[1] || "/",
    message: m[2],
  }));
}

/** Validates capability inputs against the contract; throws a `validation` DomainError (422 over REST). */
export function createInputValidator(schemas: Record<CapabilityId, CapabilitySchemas>) {
  const ajv = new AjvJsonSchemaValidator();
  const validators = new Map(
    Object.entries(schemas).map(([id, s]) => [id, ajv.getValidator<Record<string, unknown>>(s.input)]),
  );
  return function validateInput(id: CapabilityId, input: unknown): Record<string, unknown> {
    const result = validators.get(id)!(input ?? {});
    if (!result.valid) {
      const errors = fieldErrors(result.errorMessage);
      throw new DomainError(
        "validation",
        "validation_failed",
        `Invalid ${id} input: ${errors.map((e) => `${e.pointer} ${e.message}`).join("; ")}`,
        { errors },
      );
    }
    return withDefaults(schemas[id].input, result.data) as Record<string, unknown>;
  };
}
