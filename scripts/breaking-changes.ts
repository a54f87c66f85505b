// Classifies the changes between the released contract and openapi.yaml as breaking or not: api-smart-diff's diff,
// plus our own rules where its classification is wrong for us. Changes under `components` are judged where an
// operation uses them, and each `webhooks` operation is moved to `paths` first, its payload and headers judged as a
// response (docs/decisions.md, "Breaking changes judged by api-smart-diff").
import { apiCompare, type Diff } from "api-smart-diff";
import type { JsonObject } from "./contract.js";
import { patternIncludes } from "./pattern-inclusion.js";

export type ChangeClass = "breaking" | "non-breaking" | "annotation" | "unclassified" | "deprecated";

export interface ContractChange {
  /** Stable name of the change: `METHOD /path pointer-inside-the-operation` (array values named, not numbered). */
  id: string;
  type: ChangeClass;
  description: string;
}

const methods = new Set(["get", "put", "post", "delete", "patch", "options", "head", "trace"]);

/** Follows $refs while walking `path` through `doc`; undefined when the path does not exist there. */
function resolvePath(doc: unknown, path: readonly (string | number)[]): unknown {
  let node: unknown = doc;
  for (const key of path) {
    const wrapped = refAsAllOf(node, key);
    if (wrapped) {
      node = wrapped;
      continue;
    }
    node = deref(doc, node);
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return deref(doc, node);
}

/** The library reads a $ref with sibling keywords (`{ $ref, description }`) as `allOf: [{ $ref }]` beside them and
 * names its changes so (`…/allOf/0/enum`): walked here the same way. */
function refAsAllOf(node: unknown, key: string | number): unknown[] | undefined {
  const schema = node as { $ref?: unknown; allOf?: unknown } | null;
  const siblings = schema && typeof schema === "object" ? Object.keys(schema).length > 1 : false;
  if (key !== "allOf" || typeof schema?.$ref !== "string" || !siblings || schema.allOf !== undefined) return undefined;
  return [{ $ref: schema.$ref }];
}

function deref(doc: unknown, node: unknown, seen = 0): unknown {
  const ref = (node as { $ref?: unknown } | null)?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/") || seen > 32) return node;
  const target = ref
    .slice(2)
    .split("/")
    .reduce<unknown>(
      (n, key) => (n as Record<string, unknown> | undefined)?.[key.replace(/~1/g, "/").replace(/~0/g, "~")],
      doc,
    );
  return deref(doc, target, seen + 1);
}

/** Where a webhook's operations are judged under `paths`: a key no real path has (those start with "/"). */
const webhookPrefix = "webhook ";
/** The status of the synthetic response that carries a webhook's payload and headers. */
const payloadStatus = "200";

/**
 * `doc` without `webhooks`, its `paths` joined by each webhook's operations with the request body and header
 * parameters turned into a 200 response's content and headers. The webhook's own responses (what the receiver
 * answers) are left out: our server reads them, and they carry no schema.
 */
function withWebhooksAsPaths(doc: JsonObject): JsonObject {
  const { webhooks = {}, ...rest } = doc;
  const paths = { ...(doc.paths as Record<string, JsonObject>) };
  for (const [name, ref] of Object.entries(webhooks as Record<string, unknown>)) {
    const item = deref(doc, ref) as JsonObject;
    const shared = (item.parameters ?? []) as unknown[];
    const operations = Object.entries(item).filter(([method]) => methods.has(method));
    paths[`${webhookPrefix}${name}`] = Object.fromEntries(
      operations.map(([method, op]) => {
        const { requestBody, parameters = [], responses: _receiverAnswers, ...operation } = op as JsonObject;
        const headers = [...shared, ...(parameters as unknown[])]
          .map((p) => deref(doc, p) as JsonObject)
          .filter((p) => p.in === "header")
          .map(({ name: header, in: _in, ...definition }): [string, JsonObject] => [String(header), definition]);
        const content = (deref(doc, requestBody) as JsonObject | undefined)?.content;
        const payload = { description: "The webhook's payload.", headers: Object.fromEntries(headers), content };
        return [method, { ...operation, responses: { [payloadStatus]: payload } }];
      }),
    );
  }
  return { ...rest, paths };
}

const isResponse = (path: readonly (string | number)[]) => path[0] === "paths" && path[3] === "responses";

function typeSet(schema: unknown): Set<string> | null {
  const type = (schema as { type?: unknown } | undefined)?.type;
  const list: unknown[] = Array.isArray(type) ? type : [type];
  if (!list.every((t) => typeof t === "string")) return null;
  const types = new Set(list);
  if (types.has("number")) types.add("integer");
  return types;
}

/** Our rule on top: a response type may only narrow, a request type may only widen. */
function classifyTypeChange(diff: Diff, before: JsonObject, after: JsonObject): ChangeClass | null {
  const at = diff.path.lastIndexOf("type");
  if (at < 0 || at < diff.path.length - 2 || diff.path[at - 1] === "properties") return null;
  const schemaPath = diff.path.slice(0, at);
  const old = typeSet(resolvePath(before, schemaPath));
  const now = typeSet(resolvePath(after, schemaPath));
  if (!old || !now) return null;
  const [narrow, wide] = isResponse(diff.path) ? [now, old] : [old, now];
  return [...narrow].every((t) => wide.has(t)) ? "non-breaking" : "breaking";
}

/** Our rule on top: growing a response enum the released contract declared open is not breaking. */
function classifyEnumGrowth(diff: Diff, before: JsonObject, after: JsonObject): ChangeClass | null {
  const at = diff.path.lastIndexOf("enum");
  if (at < 0 || !isResponse(diff.path) || diff.path[at - 1] === "properties") return null;
  const schemaPath = diff.path.slice(0, at);
  const old = resolvePath(before, schemaPath) as { enum?: unknown[]; "x-extensible-enum"?: boolean } | undefined;
  const now = resolvePath(after, schemaPath) as { enum?: unknown[] } | undefined;
  if (!old?.enum || !now?.enum || old["x-extensible-enum"] !== true) return null;
  return old.enum.every((v) => now.enum!.includes(v)) ? "non-breaking" : null;
}

/** Our rule on top: a response property made required only strengthens what the answer promises. */
function classifyResponseRequired(diff: Diff): ChangeClass | null {
  const at = diff.path.length - 2;
  const required = diff.action === "add" && diff.path[at] === "required" && diff.path[at - 1] !== "properties";
  return required && isResponse(diff.path) ? "non-breaking" : null;
}

/** Our rule on top: a request pattern rewritten so that it accepts all it accepted before refuses nobody. */
function classifyPatternChange(diff: Diff): ChangeClass | null {
  const replaced = diff.action === "replace" && diff.path.at(-1) === "pattern" && diff.path.at(-2) !== "properties";
  if (!replaced || isResponse(diff.path) || typeof diff.before !== "string" || typeof diff.after !== "string")
    return null;
  return patternIncludes(diff.after, diff.before) ? "non-breaking" : null;
}

/** A synthetic webhook response's pointer put back where the webhook declares it (its body, its headers). */
function webhookPointer(rest: (string | number)[]): (string | number)[] {
  if (rest[0] !== "responses" || rest[1] !== payloadStatus) return rest;
  if (rest[2] === "content") return ["requestBody", ...rest.slice(2)];
  return rest[2] === "headers" ? ["parameters", ...rest.slice(3)] : rest;
}

function changeId(diff: Diff): string {
  const [, path, method, ...inOperation] = diff.path;
  const webhook = typeof path === "string" && path.startsWith(webhookPrefix);
  const rest = webhook ? webhookPointer(inOperation) : inOperation;
  const value: unknown = diff.action === "add" ? diff.after : diff.before;
  const last = rest.at(-1);
  const named =
    typeof last === "number" && (typeof value === "string" || typeof value === "number")
      ? [...rest.slice(0, -1), `=${value}`]
      : rest;
  const pointer = named.map((k) => String(k).replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  if (typeof method !== "string" || !methods.has(method)) return `${String(path)} ${pointer}`.trim();
  const operation = webhook ? `${path} ${method.toUpperCase()}` : `${method.toUpperCase()} ${String(path)}`;
  return `${operation}${pointer ? ` ${pointer}` : ""}`;
}

const verbs: Record<Diff["action"], string> = {
  add: "[Added]",
  remove: "[Removed]",
  replace: "[Replaced]",
  rename: "[Renamed]",
};

/** The library's description; where it says nothing of what changed, the action; a webhook's payload named as such. */
function describeChange(diff: Diff): string {
  const text = diff.description?.trim().startsWith("[")
    ? diff.description
    : `${verbs[diff.action]} ${diff.description ?? ""}`;
  const webhook = String(diff.path[1]).startsWith(webhookPrefix);
  return (webhook ? text.replace(`Response ${payloadStatus} content`, "the webhook payload") : text).trim();
}

/** Every change of `current` against `released` (webhooks included), judged by api-smart-diff plus the rules above. */
export function compareContracts(released: JsonObject, current: JsonObject): ContractChange[] {
  const [before, after] = [released, current].map(withWebhooksAsPaths);
  // apiCompare resolves $refs in place, so it gets copies and the rules above read the documents as they were.
  const { diffs } = apiCompare(structuredClone(before), structuredClone(after));
  const seen = new Set<string>();
  const changes: ContractChange[] = [];
  for (const diff of diffs) {
    if (diff.path[0] !== "paths") continue;
    const type =
      classifyTypeChange(diff, before, after) ??
      classifyEnumGrowth(diff, before, after) ??
      classifyResponseRequired(diff) ??
      classifyPatternChange(diff) ??
      diff.type;
    const change = { id: changeId(diff), type, description: describeChange(diff) };
    const key = `${change.type} ${change.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    changes.push(change);
  }
  return changes;
}
