// Turns the (dereferenced) contract's operations into the CLI command table (cli/generated/operations.ts).
import type { FlagSpec, FlagType, OperationSpec, TableSpec } from "../cli/operation-spec.js";
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

/** Sentences of `text`: a stop (. ! ?) then a space, outside brackets and code, before a word that is not lower case. */
function sentences(text: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let code = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "`") code = !code;
    else if (!code && (c === "(" || c === "[")) depth++;
    else if (!code && (c === ")" || c === "]")) depth = Math.max(0, depth - 1);
    else if (!code && depth === 0 && /[.!?]/.test(c) && text[i + 1] === " " && !/[a-z]/.test(text[i + 2] ?? "")) {
      found.push(text.slice(start, i + 1).trim());
      start = i + 2;
    }
  }
  return [...found, text.slice(start).trim()].filter(Boolean);
}

/** Longest help a flag shows; the rest of its description stays in the command's own text and the contract. */
const flagHelpChars = 320;

/** A flag's help: whole sentences of the description's first paragraph (never a first line that stops
 * mid-sentence), before any list, as many as fit in `flagHelpChars` (at least one). */
function describe(schema: JsonObject, fallback: string): string {
  const description = ((schema.description as string | undefined) ?? fallback).trim();
  const [paragraph] = description.split(/\n\s*\n|\n\s*(?=[-*|] )/);
  const kept: string[] = [];
  for (const sentence of sentences(paragraph.replace(/\s*\n\s*/g, " "))) {
    if (kept.length && [...kept, sentence].join(" ").length > flagHelpChars) break;
    kept.push(sentence);
  }
  return kept.join(" ");
}

/** An object, or a list of objects: no flag can spell it, so it comes through --data. */
const onlyInData = (prop: JsonObject) =>
  prop.type === "object" || (prop.type === "array" && (prop.items as JsonObject | undefined)?.type === "object");

/** A oneOf body's flags are its variants' properties together, each required only where every variant requires it
 * (`--status en_route --estimated-arrival-at …`); a property each variant fixes to its own value (the tag) takes any
 * of them. Which go together is checked against the schema itself (cli/validate.ts). */
function variantsTogether(body: JsonObject): JsonObject {
  const variants = body.oneOf as JsonObject[];
  const required = (v: JsonObject) => (v.required ?? []) as string[];
  const properties: Record<string, JsonObject> = {};
  for (const variant of variants)
    for (const [name, prop] of Object.entries((variant.properties ?? {}) as Record<string, JsonObject>)) {
      const seen = properties[name];
      properties[name] =
        seen && "const" in seen && "const" in prop
          ? {
              ...seen,
              enum: [...((seen.enum ?? [seen.const]) as unknown[]), prop.const],
              description: body.description,
            }
          : (seen ?? prop);
    }
  for (const prop of Object.values(properties)) if (Array.isArray(prop.enum)) delete prop.const;
  const everywhere = required(variants[0]).filter((name) => variants.every((v) => required(v).includes(name)));
  return { properties, required: everywhere };
}

/** Body properties become flags; one level of nested objects is flattened (`location.state` -> `--state`), except
 * the leaves that are objects or lists of objects (`working_hours.monday`), which stay in --data. */
function bodyFlags(body: JsonObject): FlagSpec[] {
  const schema = body.oneOf ? variantsTogether(body) : body;
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
    ...(op["x-cli-table"] ? { table: op["x-cli-table"] as unknown as TableSpec } : {}),
  };
}

/** The command table of a dereferenced contract (scripts/contract.ts loadResolvedContract). */
export function buildCommandTable(doc: JsonObject): OperationSpec[] {
  // An operation with no 2xx answer (GET/DELETE /api/mcp, documented only for their 405) is no command.
  const succeeds = (op: ContractOperation) =>
    Object.keys(op.operation.responses as JsonObject).some((code) => code.startsWith("2"));
  return listOperations(doc).filter(succeeds).map(toSpec);
}

/** The contract's `x-cli-groups`: what each intermediate command word (`orders`, `sandbox clock`) is for. Every
 * group the command table needs must be there, so no group is left to say only its own name. */
export function buildGroupTable(doc: JsonObject): Record<string, string> {
  const groups = (doc["x-cli-groups"] ?? {}) as Record<string, string>;
  for (const spec of buildCommandTable(doc))
    for (let n = 1; n < spec.command.length; n++) {
      const group = spec.command.slice(0, n).join(" ");
      if (typeof groups[group] !== "string") throw new Error(`openapi.yaml: x-cli-groups has no "${group}"`);
    }
  return groups;
}

/** The contract's `x-time-zones` of UsState: the zone a job's times are shown in, by state; every state has one. */
export function buildStateZoneTable(doc: JsonObject): Record<string, string> {
  const state = ((doc.components as JsonObject).schemas as Record<string, JsonObject>).UsState;
  const zones = (state["x-time-zones"] ?? {}) as Record<string, string>;
  for (const code of state.enum as string[])
    if (typeof zones[code] !== "string") throw new Error(`openapi.yaml: UsState x-time-zones has no ${code}`);
  return zones;
}

export function renderCommandTable(doc: JsonObject): string {
  const table = JSON.stringify(buildCommandTable(doc), null, 2);
  return [
    "// GENERATED by `npm run generate` from openapi.yaml. DO NOT EDIT: change the contract and regenerate.",
    'import type { OperationSpec } from "../operation-spec.js";',
    "",
    `export const operations: readonly OperationSpec[] = ${table};`,
    "",
    "/** What each command group is for (the contract's `x-cli-groups`), by its words. */",
    `export const groups: Readonly<Record<string, string>> = ${JSON.stringify(buildGroupTable(doc), null, 2)};`,
    "",
    "/** The IANA zone a job's times are shown in, by its state (UsState's `x-time-zones`). */",
    `export const stateTimeZones: Readonly<Record<string, string>> = ${JSON.stringify(buildStateZoneTable(doc), null, 2)};`,
    "",
  ].join("\n");
}
