// Loads openapi.yaml for every generator and test: raw, or with each $ref resolved by Redocly's bundler.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bundle, createConfig } from "@redocly/openapi-core";
import { parse } from "yaml";

export const contractPath = fileURLToPath(new URL("../openapi.yaml", import.meta.url));

export type JsonObject = Record<string, unknown>;

/** The contract as written ($refs left in place). */
export function loadContract(path = contractPath): JsonObject {
  return parse(readFileSync(path, "utf8")) as JsonObject;
}

/** The contract with every $ref replaced by its target (Redocly's bundler, `dereference: true`). */
export async function loadResolvedContract(path = contractPath): Promise<JsonObject> {
  const config = await createConfig({});
  const { bundle: document } = await bundle({ ref: path, config, dereference: true });
  return document.parsed as JsonObject;
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

/** The first named example of a media type object (or its `example`), null when it has none. */
export function firstExample(media: JsonObject | undefined): unknown {
  const examples = media?.examples as Record<string, JsonObject> | undefined;
  const first = examples ? Object.values(examples)[0] : undefined;
  return first?.value ?? media?.example ?? null;
}
