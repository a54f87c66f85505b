// Loads openapi.yaml and resolves local $refs; shared by the code generators and tests.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

export const contractPath = fileURLToPath(new URL("../../openapi.yaml", import.meta.url));

export type JsonObject = Record<string, unknown>;

export function loadContract(path = contractPath): JsonObject {
  return parse(readFileSync(path, "utf8")) as JsonObject;
}

/** Follows one `#/a/b` pointer inside the document. */
export function resolvePointer(doc: JsonObject, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`only local $refs are supported: ${ref}`);
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node as JsonObject)[key], doc);
}

/** Returns a copy of `node` with every local $ref replaced by its target (siblings of $ref are merged over it). */
export function deref(doc: JsonObject, node: unknown, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => deref(doc, item, seen));
  if (!node || typeof node !== "object") return node;
  const { $ref, ...rest } = node as JsonObject;
  if (typeof $ref === "string") {
    if (seen.includes($ref)) throw new Error(`circular $ref ${$ref}`);
    const target = deref(doc, resolvePointer(doc, $ref), [...seen, $ref]) as JsonObject;
    return { ...target, ...(deref(doc, rest, seen) as JsonObject) };
  }
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, deref(doc, v, seen)]));
}

export const httpMethods = ["get", "put", "post", "delete", "patch"] as const;

export interface ContractOperation {
  operationId: string;
  method: (typeof httpMethods)[number];
  path: string;
  operation: JsonObject;
}

/** Every operation of the contract, in document order. */
export function listOperations(doc: JsonObject): ContractOperation[] {
  const paths = doc.paths as Record<string, JsonObject>;
  return Object.entries(paths).flatMap(([path, item]) =>
    httpMethods
      .filter((method) => item[method])
      .map((method) => {
        const operation = item[method] as JsonObject;
        return { operationId: operation.operationId as string, method, path, operation };
      }),
  );
}
