// What the JSON-RPC endpoints (POST /api/mcp, POST /api/a2a) refuse on the parsed body before an SDK sees it.
import type { ObjectSchema } from "joi";
import { validators } from "../generated/validators.js";
import { nestsDeeperThan } from "../services/shared/json-depth.js";
import { isRecord } from "../services/shared/is-record.js";

/** The deepest nesting of objects and arrays a JSON-RPC body may have (openapi.yaml documents it). */
export const jsonRpcMaxDepth = 64;

/** A JSON-RPC 2.0 Invalid Request error (-32600); its id is null, since such a request's id cannot be trusted. */
export const invalidRequest = (message: string) => ({ jsonrpc: "2.0", id: null, error: { code: -32600, message } });

/** The -32600 error for a body nested deeper than jsonRpcMaxDepth, or null when it is within the bound. */
export const tooDeep = (payload: unknown) =>
  nestsDeeperThan(payload, jsonRpcMaxDepth)
    ? invalidRequest(`Invalid Request: JSON nested deeper than ${jsonRpcMaxDepth} levels.`)
    : null;

/** The contract's JsonRpcRequest (both endpoints share it), generated from openapi.yaml. */
const requestSchema: ObjectSchema = validators.callA2a.payload;

/**
 * Why one message is not a JSON-RPC 2.0 request as the contract's JsonRpcRequest has it (an object with
 * `jsonrpc: "2.0"`, a string `method`, an id that is a string, an integer or null, params an object or array),
 * or null when it is one. The SDKs answer such messages with -32700 or -32602 and echo a bad id; JSON-RPC names
 * -32600 with a null id.
 */
export function requestProblem(message: unknown): string | null {
  if (!isRecord(message)) return "a JSON-RPC request is an object";
  const { error } = requestSchema.validate(message, { abortEarly: true });
  return error ? error.details[0].message : null;
}

/** The -32600 error for a body that is not one JSON-RPC request, or null when it is one. */
export function invalidSingleRequest(payload: unknown) {
  const problem = requestProblem(payload);
  return problem === null ? null : invalidRequest(`Invalid Request: ${problem}.`);
}

/** True for a request whose params are an array: valid JSON-RPC 2.0, but MCP and A2A methods take an object. */
/** Whether the body, or a message of its batch, calls `method`. */
export const callsMethod = (payload: unknown, method: string) =>
  (Array.isArray(payload) ? payload : [payload]).some((m) => isRecord(m) && m.method === method);

export const hasArrayParams = (message: unknown) => isRecord(message) && Array.isArray(message.params);

/** The -32602 answer to such a request (its id is valid, so it is echoed). */
export const arrayParamsError = (message: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: message.id ?? null,
  error: { code: -32602, message: "Invalid params: this method takes params as an object, not an array." },
});
