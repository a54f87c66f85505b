// Reads the example a response of the contract carries, so tests can compare answers with it.
import { listOperations, loadResolvedContract, type JsonObject } from "../../scripts/contract.js";

const doc = await loadResolvedContract();

export const contractOperations = listOperations(doc);

/** Documented status codes of an operation. */
export function responseCodes(operationId: string): string[] {
  const op = contractOperations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return Object.keys(op.operation.responses as JsonObject);
}

/** The first example of a response (null when the response has no body). */
export function responseExample(operationId: string, code: string): unknown {
  const op = contractOperations.find((o) => o.operationId === operationId)!;
  const response = (op.operation.responses as JsonObject)[code] as JsonObject;
  const content = response.content as Record<string, JsonObject> | undefined;
  if (!content) return null;
  const media = Object.values(content)[0];
  const examples = media.examples as Record<string, JsonObject> | undefined;
  return examples ? Object.values(examples)[0].value : media.example;
}
