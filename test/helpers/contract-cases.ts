// Requests generated from openapi.yaml, Portman-style: one positive request per operation (its examples and a
// credential its security accepts) and negative variations of it from the request schemas (schema-arbitrary.ts's
// mutations: not an object, a required member missing, a wrong JSON type, past a bound, an undeclared member).
import fc from "fast-check";
import { firstExample, listOperations, type JsonObject } from "../../scripts/contract.js";
import { mutations, valid } from "./schema-arbitrary.js";

export interface Credentials {
  apiKey: string;
  adminToken: string;
  /** A contractor key (createContractorKey), for the operations whose ApiKey requirement names a contractor scope. */
  contractorKey?: string;
}

export interface ContractCase {
  name: string;
  operationId: string;
  method: string;
  /** Path with its parameters filled in and its query string. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Negative cases: the statuses a refused input may get (the operation's documented 400 and 422). */
  refusedWith?: number[];
}

interface Operation {
  operationId: string;
  method: string;
  path: string;
  operation: JsonObject;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonObject;
  example?: unknown;
}

const parametersOf = (op: Operation) => (op.operation.parameters ?? []) as Parameter[];

/** The parameter's example, else a value its schema accepts (fixed seed: the same request every run). */
function exampleOf(p: Parameter): unknown {
  const examples = (p as { examples?: Record<string, { value?: unknown }> }).examples;
  const example = p.example ?? Object.values(examples ?? {})[0]?.value ?? p.schema?.example;
  if (example !== undefined || !p.schema) return example ?? "x";
  // A path segment cannot be empty: "" would name another route.
  const schema = p.in === "path" ? { ...p.schema, minLength: Math.max(1, Number(p.schema.minLength ?? 0)) } : p.schema;
  return fc.sample(valid(schema), { numRuns: 1, seed: 42 })[0];
}

/** The request's path and query from the parameters' examples (required ones, and any with an example). */
function urlOf(op: Operation, query: Record<string, unknown> = {}): string {
  let path = op.path;
  const search = new URLSearchParams();
  for (const p of parametersOf(op)) {
    const value = p.name in query ? query[p.name] : exampleOf(p);
    if (p.in === "path") path = path.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    else if (p.in === "query" && value !== undefined && (p.required || p.name in query))
      for (const v of Array.isArray(value) ? value : [value]) search.append(p.name, String(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Headers for the first security requirement these credentials meet (none for a public operation). */
function authHeaders(op: Operation, creds: Credentials): Record<string, string> {
  const requirements = (op.operation.security ?? [{}]) as Record<string, string[]>[];
  const schemes = requirements.flatMap((r) => Object.keys(r));
  if (schemes.includes("AdminToken")) return { authorization: `Bearer ${creds.adminToken}` };
  const keyScopes = requirements.flatMap((r) => r.ApiKey ?? []);
  const forContractor = keyScopes.some((scope) => scope.startsWith("contractor:"));
  if (schemes.includes("ApiKey"))
    return { "x-api-key": forContractor ? (creds.contractorKey ?? creds.apiKey) : creds.apiKey };
  if (schemes.includes("McpBearerKey")) return { authorization: `Bearer ${creds.apiKey}` };
  return {};
}

function mediaOf(op: Operation): { type: string; media: JsonObject } | null {
  const content = (op.operation.requestBody as JsonObject | undefined)?.content as
    Record<string, JsonObject> | undefined;
  const type = content && Object.keys(content)[0];
  return type ? { type, media: content[type] } : null;
}

function encode(type: string, value: unknown): string {
  if (type !== "application/x-www-form-urlencoded") return JSON.stringify(value);
  return new URLSearchParams(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  ).toString();
}

function baseCase(op: Operation, creds: Credentials): ContractCase {
  const headers: Record<string, string> = { accept: "application/json", ...authHeaders(op, creds) };
  if (op.path === "/api/mcp") headers.accept = "application/json, text/event-stream"; // the transport requires both
  const body = mediaOf(op);
  const example = body && firstExample(body.media);
  return {
    name: `${op.operationId} with the contract's example`,
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    url: urlOf(op),
    headers: body ? { ...headers, "content-type": body.type } : headers,
    ...(body && example !== null ? { body: encode(body.type, example) } : {}),
  };
}

/** One request per operation, from its examples. */
export function positiveCases(doc: JsonObject, creds: Credentials): ContractCase[] {
  return listOperations(doc).map((op) => baseCase(op, creds));
}

/** Statuses the operation documents for a refused input. */
const refusals = (op: Operation) =>
  ["400", "422"].filter((s) => s in (op.operation.responses as JsonObject)).map(Number);

/** The body variations of one operation: its example broken one way at a time (top level). */
function bodyVariations(op: Operation, base: ContractCase): ContractCase[] {
  const body = mediaOf(op);
  const example = body && firstExample(body.media);
  const schema = body?.media.schema as JsonObject | undefined;
  if (!body || !schema || typeof example !== "object" || example === null || Array.isArray(example)) return [];
  const form = body.type === "application/x-www-form-urlencoded";
  return mutations(schema)
    .filter((m) => !form || m.rule !== "type") // a form carries text only: a "wrong type" is text too
    .map((m) => ({ m, value: m.apply(example as JsonObject) }))
    .filter(({ value }) => !form || (typeof value === "object" && !Array.isArray(value)))
    .map(({ m, value }) => ({
      ...base,
      name: `${op.operationId} with ${m.label}`,
      body: encode(body.type, value),
      refusedWith: refusals(op),
    }));
}

/** The query variations of one operation: each bounded query parameter just past a bound. */
function queryVariations(op: Operation, base: ContractCase): ContractCase[] {
  const query = parametersOf(op).filter((p) => p.in === "query" && p.schema);
  const schema = { type: "object", properties: Object.fromEntries(query.map((p) => [p.name, p.schema])) };
  return mutations(schema)
    .filter((m) => m.rule === "bound")
    .map((m) => ({
      ...base,
      name: `${op.operationId} with ?${m.label}`,
      url: urlOf(op, m.apply({}) as Record<string, unknown>),
      refusedWith: refusals(op),
    }));
}

/** Negative cases for every operation that documents a 400 or 422. */
export function negativeCases(doc: JsonObject, creds: Credentials): ContractCase[] {
  return listOperations(doc)
    .filter((op) => refusals(op).length > 0)
    .flatMap((op) => {
      const base = baseCase(op, creds);
      return [...bodyVariations(op, base), ...queryVariations(op, base)];
    });
}
