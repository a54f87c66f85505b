import type { Lifecycle, Request } from "@hapi/hapi";
import { callerOf } from "../../plugins/auth.js";
import { isParseError } from "../../plugins/errors.js";
import { requestIdOf } from "../../plugins/request-id.js";
import { createMcpService, mcpBatchLimit, mcpCosts } from "../../services/agents/mcp.js";
import type { RouteFactory } from "../types.js";
import { invalidRequest, tooDeep } from "../json-rpc.js";
import { originOf } from "../../plugins/origin.js";

// JSON-RPC 2.0: an empty batch, or anything but an object or array, is one Invalid Request error.
const isJsonRpcShape = (payload: unknown) =>
  Array.isArray(payload) ? payload.length > 0 : typeof payload === "object" && payload !== null;

/** Malformed JSON is a JSON-RPC parse error (-32700); any other payload failure stays a problem. */
const parseFailAction: Lifecycle.Method = (_request, h, error) => {
  if (!isParseError(error)) throw error!; // Hapi always passes the error to failAction
  return h
    .response({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: Invalid JSON" } })
    .code(400)
    .takeover();
};

const route: RouteFactory = (services) => {
  const mcp = createMcpService(services);
  return {
    method: "POST",
    path: "/api/mcp",
    options: {
      auth: { strategy: "mcp", mode: "optional" },
      tags: ["mcp"],
      plugins: { rateLimit: (request: Request) => mcpCosts(request.payload), checkOrigin: true },
      payload: {
        allow: "application/json",
        failAction: parseFailAction,
      },
    },
    handler: async (request, h) => {
      if (!isJsonRpcShape(request.payload)) return h.response(invalidRequest("Invalid Request")).code(400);
      if (Array.isArray(request.payload) && request.payload.length > mcpBatchLimit)
        return h
          .response(invalidRequest(`Invalid Request: a batch holds at most ${mcpBatchLimit} messages.`))
          .code(400);
      const deep = tooDeep(request.payload);
      if (deep) return h.response(deep).code(400);
      const res = request.raw.res;
      // The transport writes the response itself: carry over what Hapi's onPreResponse would have added.
      res.setHeader("x-request-id", requestIdOf(request));
      res.setHeader("x-content-type-options", "nosniff");
      for (const [name, value] of Object.entries(request.plugins["dispatch-rate-limit"] ?? {}))
        res.setHeader(name, value);
      await mcp.handle(request.raw.req, res, request.payload, {
        caller: callerOf(request),
        origin: originOf(request),
        receivedAt: request.info.received,
        log: (error) => {
          request.log(["error", "mcp"], error as object);
        },
      });
      return h.abandon;
    },
  };
};
export default route;
