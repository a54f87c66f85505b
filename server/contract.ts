// openapi.yaml as the server reads it: its text and its parsed document. The build writes its parse beside the
// shipped copy (openapi.json), so a built server starts without the YAML parser and the time a parse takes.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";

const yamlFile = new URL("../openapi.yaml", import.meta.url);
const parsedFile = new URL("../openapi.json", import.meta.url);

export interface ContractDocument {
  info: { version: string };
  [key: string]: unknown;
}

export const readContractText = (): string => readFileSync(yamlFile, "utf8");

/** True when the build's parse exists and is not older than the YAML (a run from source has none). */
function hasParsedCopy(): boolean {
  try {
    return statSync(parsedFile).mtimeMs >= statSync(yamlFile).mtimeMs;
  } catch {
    return false;
  }
}

/** A fresh parse of the contract on each call, so each caller decides how long to keep it. */
export function readContract(): ContractDocument {
  const document: unknown = hasParsedCopy()
    ? JSON.parse(readFileSync(parsedFile, "utf8"))
    : (createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse(readContractText());
  if (typeof document !== "object" || document === null)
    throw new Error(`${yamlFile.pathname} is not an OpenAPI document`);
  return document as ContractDocument;
}
