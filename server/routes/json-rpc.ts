// What the JSON-RPC endpoints (POST /api/mcp, POST /api/a2a) refuse on the parsed body before an SDK sees it.
import { nestsDeeperThan } from "../services/shared/json-depth.js";

/** The deepest nesting of objects and arrays a JSON-RPC body may have (openapi.yaml documents it). */
export const jsonRpcMaxDepth = 64;

/** A JSON-RPC 2.0 Invalid Request error (-32600); its id is null, since such a request's id cannot be trusted. */
export const invalidRequest = (message: string) => ({ jsonrpc: "2.0", id: null, error: { code: -32600, message } });

/** The -32600 error for a body nested deeper than jsonRpcMaxDepth, or null when it is within the bound. */
export const tooDeep = (payload: unknown) =>
  nestsDeeperThan(payload, jsonRpcMaxDepth)
    ? invalidRequest(`Invalid Request: JSON nested deeper than ${jsonRpcMaxDepth} levels.`)
    : null;
