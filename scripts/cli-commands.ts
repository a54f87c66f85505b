// Turns the (dereferenced) contract's operations into the CLI command table (cli/generated/operations.ts).
import type { FlagSpec, FlagType, OperationSpec } from "../cli/operation-spec.js";
import { firstExample, listOperations, type ContractOperation, type JsonObject } from "./contract.js";

const kebab = (name: string) =>
  name
    .replace(/_/g, "-")
    .replace(/([a-z])([A-Z])/g, "$1-$2")
    .toLowerCase();

function typeOf(schema: JsonObject): FlagType {
  const type: unknown = schema.type;
  const raw = Array.isArray(type) ? (type as unknown[]).find((t) => t !== "null") : type;
  if (raw === "integer" || raw === "number" || raw === "boolean" || raw === "array") return raw;
  return "string";
}

function pickBounds(schema: JsonObject): Partial<FlagSpec> {
  const bounds: Partial<FlagSpec> = {};
  if (Array.isArray(schema.enum)) bounds.enum = schema.enum as string[];
  // A repeatable flag (`--status a,b`) is checked item by item against the items' enum.
  const items = schema.items as JsonObject | undefined;
  if (schema.type === "array" && Array.isArray(items?.enum)) bounds.enum = items.enum as string[];
  const fallback = schema["x-default"] ?? schema.default; // request defaults are `x-default` (see openapi.yaml)
  if (fallback !== undefined) bounds.default = fallback;
  if (typeof schema.minimum === "number") bounds.minimum = schema.minimum;
  if (typeof schema.maximum === "number") bounds.maximum = schema.maximum;
  if (typeof schema.pattern === "string") bounds.pattern = schema.pattern;
  if (typeof schema["x-pattern-description"] === "string") bounds.patternDescription = schema["x-pattern-description"];
  if (typeof schema.minLength === "number") bounds.minLength = schema.minLength;
  if (typeof schema.maxLength === "number") bounds.maxLength = schema.maxLength;
  return bounds;
}

function describe(schema: JsonObject, fallback: string): string {
  return ((schema.description as string | undefined) ?? fallback).split("\n")[0].trim();
}

/** An object, or a list of objects: no flag can spell it, so it comes through --data. */
const onlyInData = (prop: JsonObject) =>
  prop.type === "object" || (prop.type === "array" && (prop.items as JsonObject | undefined)?.type === "object");

/** Body properties become flags; one level of nested objects is flattened (`location.state` -> `--state`), except
 * the leaves that are objects or lists of objects (`working_hours.monday`), which stay in --data. */
function bodyFlags(schema: JsonObject): FlagSpec[] {
  const props = (schema.properties ?? {}) as Record<string, JsonObject>;
  const required = (schema.required ?? []) as string[];
  const topNames = new Set(Object.keys(props).map(kebab));
  return Object.entries(props).flatMap(([name, prop]): FlagSpec[] => {
    if (prop.type === "object" && prop.properties) {
      const inner = prop.properties as Record<string, JsonObject>;
      const innerRequired = (prop.required ?? []) as string[];
      return Object.entries(inner)
        .filter(([, leafSchema]) => !onlyInData(leafSchema))
        .map(([leaf, leafSchema]) => ({
          flag: topNames.has(kebab(leaf)) ? `${kebab(name)}-${kebab(leaf)}` : kebab(leaf),
          in: "body" as const,
          target: [name, leaf],
          type: typeOf(leafSchema),
          required: required.includes(name) && innerRequired.includes(leaf),
          description: describe(leafSchema, `${name}.${leaf}`),
          ...pickBounds(leafSchema),
        }));
    }
    if (onlyInData(prop)) return [];
    return [
      {
        flag: kebab(name),
        in: "body",
        target: [name],
        type: typeOf(prop),
        required: required.includes(name),
        description: describe(prop, name),
        ...pickBounds(prop),
      },
    ];
  });
}

function parameterFlags(parameters: JsonObject[]): FlagSpec[] {
  return parameters.map((param) => {
    const schema = (param.schema ?? {}) as JsonObject;
    return {
      flag: kebab(param.name as string),
      in: param.in as FlagSpec["in"],
      target: [param.name as string],
      type: typeOf(schema),
      required: Boolean(param.required),
      description: describe(param, param.name as string),
      ...pickBounds(schema),
    };
  });
}

function toSpec({ operationId, method, path, operation: op }: ContractOperation): OperationSpec {
  const content = ((op.requestBody as JsonObject | undefined)?.content ?? {}) as Record<string, JsonObject>;
  const [bodyContentType, media] = Object.entries(content)[0] ?? [null, undefined];
  const security = ((op.security ?? []) as JsonObject[]).flatMap((req) => Object.keys(req));
  return {
    operationId,
    command: ((op["x-cli"] as string | undefined) ?? kebab(operationId)).split(" "),
    method,
    path,
    summary: op.summary as string,
    description: ((op.description as string | undefined) ?? "").trim(),
    security,
    bodyContentType,
    bodyRequired: Boolean((op.requestBody as JsonObject | undefined)?.required),
    flags: [
      ...parameterFlags((op.parameters ?? []) as JsonObject[]),
      ...(media ? bodyFlags(media.schema as JsonObject) : []),
    ],
    example: firstExample(media),
    responses: Object.keys(op.responses as JsonObject),
  };
}

/** The command table of a dereferenced contract (scripts/contract.ts loadResolvedContract). */
export function buildCommandTable(doc: JsonObject): OperationSpec[] {
  // An operation with no 2xx answer (GET/DELETE /api/mcp, documented only for their 405) is no command.
  const succeeds = (op: ContractOperation) =>
    Object.keys(op.operation.responses as JsonObject).some((code) => code.startsWith("2"));
  return listOperations(doc).filter(succeeds).map(toSpec);
}

export function renderCommandTable(doc: JsonObject): string {
  const table = JSON.stringify(buildCommandTable(doc), null, 2);
  return [
    "// GENERATED by `npm run generate` from openapi.yaml. DO NOT EDIT: change the contract and regenerate.",
    'import type { OperationSpec } from "../operation-spec.js";',
    "",
    `export const operations: readonly OperationSpec[] = ${table};`,
    "",
  ].join("\n");
}
