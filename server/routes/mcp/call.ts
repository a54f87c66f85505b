import type { Lifecycle, Request } from "@hapi/hapi";
import { callerOf, mcpUnauthorized } from "../../plugins/auth.js";
import { isParseError } from "../../plugins/errors.js";
import { requestIdOf } from "../../plugins/request-id.js";
import { createMcpService, mcpBatchLimit, mcpCosts } from "../../services/agents/mcp.js";
import type { RouteFactory } from "../types.js";
import {
  arrayParamsError,
  callsMethod,
  hasArrayParams,
  invalidRequest,
  invalidSingleRequest,
  requestProblem,
  tooDeep,
} from "../json-rpc.js";
import { originOf } from "../../plugins/origin.js";
import { operationRoute } from "../operation-route.js";

/**
 * The -32600 answer to a body the SDK must not see: not an object or non-empty batch, a batch over the bound, too
 * deep, or a message that is not a JSON-RPC request. A batch is refused whole, array params in it too (only a
 * lone message is answered -32602 for them).
 */
function refusal(payload: unknown) {
  const batch = Array.isArray(payload) ? payload : null;
  if (batch?.length === 0) return invalidRequest("Invalid Request: an empty batch.");
  if (batch && batch.length > mcpBatchLimit)
    return invalidRequest(`Invalid Request: a batch holds at most ${mcpBatchLimit} messages.`);
  const deep = tooDeep(payload);
  if (deep || !batch) return deep ?? invalidSingleRequest(payload);
  const index = batch.findIndex((m) => requestProblem(m) !== null || hasArrayParams(m));
  if (index < 0) return null;
  const problem = requestProblem(batch[index]) ?? "MCP takes params as an object";
  return invalidRequest(`Invalid Request: message ${index + 1} of the batch: ${problem}.`);
}

/** Malformed JSON is a JSON-RPC parse error (-32700); any other payload failure stays a problem. */
const parseFailAction: Lifecycle.Method = (_request, h, error) => {
  if (!isParseError(error)) throw error!; // Hapi always passes the error to failAction
  return h
    .response({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: Invalid JSON" } })
    .code(400)
    .takeover();
};

const route: RouteFactory = (services, handlers) => {
  const mcp = createMcpService(services, handlers);
  return operationRoute("callMcp", {
    validate: null, // JSON-RPC: a bad message is -32600/-32602 from refusal() and the SDK, not a 422
    options: {
      plugins: { rateLimit: (request: Request) => mcpCosts(request.payload), checkOrigin: true },
      payload: {
        allow: "application/json",
        failAction: parseFailAction,
      },
    },
    handler: async (request, h) => {
      const refused = refusal(request.payload);
      if (refused) return h.response(refused).code(400);
      if (hasArrayParams(request.payload)) {
        const message = request.payload as Record<string, unknown>;
        return "id" in message ? h.response(arrayParamsError(message)) : h.response().code(202); // a notification
      }
      // MCP authorization: a request that needs a credential and has none is an HTTP 401 with the challenge.
      const caller = callerOf(request);
      if (!caller && callsMethod(request.payload, "resources/read"))
        throw mcpUnauthorized(request, services.config.publicBaseUrl);
      const res = request.raw.res;
      // The transport writes the response itself: carry over what Hapi's onPreResponse would have added.
      res.setHeader("x-request-id", requestIdOf(request));
      res.setHeader("x-content-type-options", "nosniff");
      for (const [name, value] of Object.entries(request.plugins["dispatch-rate-limit"] ?? {}))
        res.setHeader(name, value);
      await mcp.handle(request.raw.req, res, request.payload, {
        caller,
        origin: originOf(request),
        receivedAt: request.info.received,
        log: (error) => {
          request.log(["error", "mcp"], error as object);
        },
      });
      return h.abandon;
    },
  });
};
export default route;
