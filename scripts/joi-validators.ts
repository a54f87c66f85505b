// Renders server/generated/validators.ts: joi for every operation's path, query, header and body input, and
// the JSON Schemas the MCP tools and A2A skills publish, all from the dereferenced contract.
import { listOperations, type ContractOperation, type JsonObject } from "./contract.js";

const json = (value: unknown) => JSON.stringify(value);

function typesOf(s: JsonObject): string[] {
  return (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []).filter((t) => t !== "null") as string[];
}

function stringJoi(s: JsonObject): string {
  let out = "Joi.string()";
  if (Array.isArray(s.enum)) return `${out}.valid(...${json(s.enum)})`;
  const emptyFits = typeof s.pattern !== "string" || new RegExp(s.pattern, "u").test("");
  if (typeof s.minLength === "number" && s.minLength > 0) out += `.min(${s.minLength})`;
  else if (emptyFits) out += `.allow("")`; // JSON Schema accepts "" unless a bound refuses it; joi does not
  if (typeof s.maxLength === "number") out += `.custom(maxChars(${s.maxLength}))`;
  // A lone surrogate is no Unicode text (I-JSON): refused for every string, as patterns no longer name surrogates.
  out += ".custom(unicodeText)";
  if (typeof s.pattern === "string") out += `.pattern(new RegExp(${json(s.pattern)}, "u"))`;
  // A 422 says what the pattern means, not the expression (`x-pattern-description`).
  if (typeof s.pattern === "string" && typeof s["x-pattern-description"] === "string")
    out += `.messages({ "string.pattern.base": ${json(`{{#label}} must be ${s["x-pattern-description"]}`)} })`;
  // joi's uri() passes what WHATWG URL refuses (port 99999, "%zz" in the host), which the server then parses.
  if (s.format === "uri") out += ".uri().custom(parsesAsUrl)";
  // A date-time (RFC 3339) arrives as a Date, so an impossible instant is a 422 and never reaches SQL.
  if (s.format === "date-time") out += ".isoDate()";
  return out;
}

function numberJoi(s: JsonObject, integer: boolean): string {
  let out = integer ? "Joi.number().integer()" : "Joi.number()";
  if (typeof s.minimum === "number") out += `.min(${s.minimum})`;
  if (typeof s.maximum === "number") out += `.max(${s.maximum})`;
  return out;
}

function objectJoi(s: JsonObject): string {
  const props = (s.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((s.required ?? []) as string[]);
  const keys = Object.entries(props).map(
    ([name, prop]) => `${json(name)}: ${joiOf(prop)}${required.has(name) ? ".required()" : ""}`,
  );
  let out = `Joi.object({ ${keys.join(", ")} })`;
  if (s.additionalProperties !== false) out += ".unknown(true)";
  if (typeof s.minProperties === "number") out += `.min(${s.minProperties})`;
  return out;
}

function arrayJoi(s: JsonObject): string {
  let out = `Joi.array().items(${joiOf((s.items ?? {}) as JsonObject)})`;
  if (typeof s.minItems === "number") out += `.min(${s.minItems})`;
  if (typeof s.maxItems === "number") out += `.max(${s.maxItems})`;
  if (s.uniqueItems) out += ".unique()";
  return out;
}

const propertiesOf = (s: JsonObject) => (s.properties ?? {}) as Record<string, JsonObject>;
const requiredOf = (s: JsonObject) => (s.required ?? []) as string[];

/** The property each variant requires with a `const` of its own (a tagged union: JobStatusReport's `status`). */
function tagOf(variants: JsonObject[]): string | undefined {
  return Object.keys(propertiesOf(variants[0])).find((name) =>
    variants.every((v) => requiredOf(v).includes(name) && "const" in (propertiesOf(v)[name] ?? {})),
  );
}

/**
 * A oneOf of objects as joi that still names the field at fault (joi's alternatives().try() only says that no
 * variant matched): a tagged union switches on its tag, each tag's variant checked whole; variants told apart by the
 * one key each requires (SandboxClockAdvanceRequest's `by` or `to`) are one object holding exactly one of the keys.
 */
function oneOfJoi(variants: JsonObject[]): string {
  const objects = variants.every((v) => typesOf(v).includes("object"));
  const tag = objects ? tagOf(variants) : undefined;
  if (tag) {
    const values = variants.map((v) => propertiesOf(v)[tag].const);
    const cases = variants.map((v, i) => `{ is: ${json(values[i])}, then: ${joiOf(v)} }`);
    const otherwise = `Joi.object({ ${json(tag)}: Joi.valid(...${json(values)}).required() }).unknown(true)`;
    return `Joi.alternatives().conditional(".${tag}", { switch: [${cases.join(", ")}], otherwise: ${otherwise} })`;
  }
  const keys = variants.map(requiredOf);
  if (objects && keys.every((k) => k.length === 1) && new Set(keys.flat()).size === variants.length) {
    const closed = variants.every((v) => v.additionalProperties === false);
    const properties = Object.assign({}, ...variants.map(propertiesOf)) as JsonObject;
    const merged = { type: "object", properties, ...(closed ? { additionalProperties: false } : {}) };
    return `${objectJoi(merged)}.xor(${keys.flat().map(json).join(", ")})`;
  }
  return `Joi.alternatives().try(${variants.map(joiOf).join(", ")})`;
}

function singleJoi(s: JsonObject, type: string | undefined): string {
  if (s.allOf) return joiOf((s.allOf as JsonObject[]).reduce<JsonObject>((all, part) => ({ ...all, ...part }), {}));
  switch (type) {
    case "string":
      return stringJoi(s);
    case "integer":
    case "number":
      return numberJoi(s, type === "integer");
    case "boolean":
      return "Joi.boolean()";
    case "array":
      return arrayJoi(s);
    case "object":
      return objectJoi(s);
    default:
      return s.oneOf ? oneOfJoi(s.oneOf as JsonObject[]) : "Joi.any()";
  }
}

/** joi source for one JSON Schema (the subset the contract uses for requests). */
export function joiOf(s: JsonObject): string {
  if ("const" in s) return `Joi.valid(${json(s.const)})`;
  const types = typesOf(s);
  let out =
    types.length > 1
      ? `Joi.alternatives().try(${types.map((t) => singleJoi(s, t)).join(", ")})`
      : singleJoi(s, types[0]);
  if (Array.isArray(s.type) && s.type.includes("null")) out += ".allow(null)";
  // Request fields carry their server default as `x-default` (openapi.yaml says why); `default` is honoured too.
  const fallback = s["x-default"] ?? s.default;
  if (fallback !== undefined) out += `.default(${json(fallback)})`;
  return out;
}

type Part = "params" | "query" | "headers";
const partOf: Record<string, Part> = { path: "params", query: "query", header: "headers" };

function parameterParts(op: JsonObject): Partial<Record<Part, string>> {
  const groups: Partial<Record<Part, string[]>> = {};
  for (const p of (op.parameters ?? []) as JsonObject[]) {
    const part = partOf[p.in as string];
    if (!part) continue;
    const name = part === "headers" ? (p.name as string).toLowerCase() : (p.name as string);
    const schema = (p.schema ?? {}) as JsonObject;
    // A repeatable query parameter (?status=a&status=b) may also arrive once, as a plain string.
    const single = part === "query" && schema.type === "array" ? ".single()" : "";
    const joi = joiOf(schema) + single + (p.required ? ".required()" : "");
    (groups[part] ??= []).push(`${json(name)}: ${joi}`);
  }
  return Object.fromEntries(
    Object.entries(groups).map(([part, keys]) => [
      part,
      `Joi.object({ ${keys.join(", ")} })${part === "headers" ? ".unknown(true)" : ""}`,
    ]),
  );
}

const bodyContent = (op: JsonObject) =>
  (op.requestBody as JsonObject | undefined)?.content as Record<string, JsonObject> | undefined;

function bodySchema(op: JsonObject): JsonObject | undefined {
  const content = bodyContent(op);
  const media = content?.["application/json"] ?? content?.["application/x-www-form-urlencoded"];
  return media?.schema as JsonObject | undefined;
}

/**
 * A JSON body carries its own types: "45000" is not an integer nor "true" a boolean, as the contract says, so
 * joi must not convert it. Form bodies, paths, queries and headers are text and keep joi's conversion.
 */
function payloadJoi(op: JsonObject, body: JsonObject): string {
  return bodyContent(op)?.["application/json"] ? `${joiOf(body)}.prefs({ convert: false })` : joiOf(body);
}

function operationEntry({ operationId, operation }: ContractOperation): string | null {
  const parts: Record<string, string> = { ...parameterParts(operation) };
  const body = bodySchema(operation);
  if (body) parts.payload = payloadJoi(operation, body);
  const entries = Object.entries(parts);
  if (!entries.length) return null;
  return `  ${operationId}: {\n${entries.map(([k, v]) => `    ${k}: ${v},`).join("\n")}\n  },`;
}

/** Input schema of an operation as a tool sees it: the JSON body, or an object of its query parameters, with its
 * path parameters other than `id` (the tool surfaces add `id`, which also takes the MCP order handle). */
function inputSchema(op: JsonObject): JsonObject {
  const parameters = (op.parameters ?? []) as JsonObject[];
  const path = parameters.filter((p) => p.in === "path" && p.name !== "id");
  const body = bodySchema(op);
  const params = body ? path : [...path, ...parameters.filter((p) => p.in === "query")];
  const required = params.filter((p) => p.required).map((p) => p.name as string);
  const properties = params.map((p): [string, JsonObject] => [
    p.name as string,
    { ...(p.schema as JsonObject), description: p.description },
  ]);
  if (body && !params.length) return body;
  if (body) {
    const merged: JsonObject = { ...Object.fromEntries(properties), ...(body.properties as JsonObject | undefined) };
    return { ...body, properties: merged, required: [...required, ...((body.required ?? []) as string[])] };
  }
  return {
    type: "object",
    properties: Object.fromEntries(properties),
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/** Output schema: the 2xx JSON body; several 2xx bodies (createOrder's 201 and 202) become a oneOf. */
function outputSchema(op: JsonObject): JsonObject {
  const bodies = Object.entries(op.responses as Record<string, JsonObject>)
    .filter(([status]) => /^2\d\d$/.test(status))
    .map(([, r]) => (r.content as Record<string, JsonObject> | undefined)?.["application/json"]?.schema)
    .filter((schema): schema is JsonObject => Boolean(schema));
  return bodies.length === 1 ? bodies[0] : { type: "object", oneOf: bodies };
}

/** Every operation's tool-facing schemas; the capability registry picks the ones agents may call. */
function agentSchemas(doc: JsonObject): string {
  const entries = listOperations(doc).map(
    ({ operationId, operation }) =>
      `  ${operationId}: ${json({ input: inputSchema(operation), output: outputSchema(operation) })},`,
  );
  return `export const operationSchemas: Record<string, { input: JsonSchema; output: JsonSchema }> = {\n${entries.join("\n")}\n};\n`;
}

/** Component schemas of files the server reads at start-up rather than of request bodies. */
const startupFileSchemas = ["SandboxFixtures"];

function schemaEntries(doc: JsonObject): string {
  const schemas = (doc.components as JsonObject).schemas as Record<string, JsonObject>;
  return startupFileSchemas.map((name) => `  ${name}: ${joiOf(schemas[name])},`).join("\n");
}

/** The `.custom()` rules the generated joi uses where joi's own rules differ from the contract's. */
const customRules = [
  "/** JSON Schema's maxLength counts code points (as Postgres varchar does); joi's max() counts UTF-16 units. */",
  "const maxChars = (limit: number) => (value: string, helpers: Joi.CustomHelpers) =>",
  '  [...value].length > limit ? helpers.error("string.max", { limit }) : value;',
  "",
  "/** A lone UTF-16 surrogate (`\\p{Cs}` outside a pair): no Unicode text, which other languages cannot even hold. */",
  "const unicodeText = (value: string, helpers: Joi.CustomHelpers) =>",
  '  /\\p{Cs}/u.test(value) ? helpers.message({ custom: "{{#label}} must be Unicode text (it holds a lone surrogate)" }) : value;',
  "",
  "/** A uri the server can use: one the WHATWG URL parser (`new URL`) accepts, as the server later parses it. */",
  "const parsesAsUrl = (value: string, helpers: Joi.CustomHelpers) =>",
  '  URL.canParse(value) ? value : helpers.error("string.uri");',
  "",
];

export function renderValidators(doc: JsonObject): string {
  const entries = listOperations(doc).map(operationEntry).filter(Boolean);
  return [
    "// GENERATED by `npm run generate` from openapi.yaml (scripts/joi-validators.ts). DO NOT EDIT.",
    'import Joi from "joi";',
    "",
    ...customRules,
    "",
    "/** Route input validation per operationId: Hapi `validate` parts (params, query, headers, payload). */",
    `export const validators = {\n${entries.join("\n")}\n};`,
    "",
    "/** Files the server reads at start-up, by their component schema's name. */",
    `export const schemaValidators = {\n${schemaEntries(doc)}\n};`,
    "",
    "/** JSON Schemas (input, output) of the operations agents call as MCP tools and A2A skills. */",
    "export type JsonSchema = { [key: string]: unknown };",
    agentSchemas(doc),
  ].join("\n");
}
