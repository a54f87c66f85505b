import Boom from "@hapi/boom";
import type { Request, ResponseToolkit } from "@hapi/hapi";
import { requestIdOf } from "../../plugins/request-id.js";
import { createMcpService, type McpService } from "../../services/agents/mcp.js";
import type { Caller } from "../../services/agents/run-capability.js";
import type { RouteFactory } from "../types.js";
import { baseUrlOf, originOf } from "../origin.js";

// JSON-RPC 2.0: an empty batch, or anything but an object or array, is one Invalid Request error.
const isJsonRpcShape = (payload: unknown) =>
  Array.isArray(payload) ? payload.length > 0 : typeof payload === "object" && payload !== null;

/** 401 problem whose challenge points at the RFC 9728 metadata (the MCP authorization spec's discovery hook). */
function invalidBearer(request: Request, base: string | null, description: string) {
  const error = Boom.unauthorized(description);
  const metadata = `${baseUrlOf(request, base)}/.well-known/oauth-protected-resource`;
  error.output.headers["WWW-Authenticate"] =
    `Bearer realm="dispatch", error="invalid_token", error_description="${description}", resource_metadata="${metadata}"`;
  return error;
}

/** Resolves a Bearer credential before the rate limiter runs, so limits count per key; a bad one is 401. */
function authenticateBearer(mcp: McpService, base: string | null) {
  return async (request: Request, h: ResponseToolkit) => {
    const header = request.headers.authorization as string | undefined;
    if (!header) return h.continue;
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    const caller = bearer ? await mcp.resolveBearer(bearer) : null;
    if (!caller)
      throw invalidBearer(
        request,
        base,
        bearer
          ? "The bearer credential is unknown, expired or revoked."
          : "Send the credential as Authorization: Bearer <API_KEY>.",
      );
    request.auth.credentials = { principal: caller };
    return h.continue;
  };
}

const route: RouteFactory = (services) => {
  const mcp = createMcpService(services);
  return {
    method: "POST",
    path: "/api/mcp",
    options: {
      auth: false,
      tags: ["mcp"],
      plugins: { rateLimit: "default" },
      ext: { onPreAuth: { method: authenticateBearer(mcp, services.config.publicBaseUrl) } },
      payload: {
        allow: "application/json",
        failAction: (_request, h) =>
          h
            .response({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: Invalid JSON" } })
            .code(400)
            .takeover(),
      },
    },
    handler: async (request, h) => {
      if (!isJsonRpcShape(request.payload))
        return h.response({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } }).code(400);
      const res = request.raw.res;
      // The transport writes the response itself: carry over what Hapi's onPreResponse would have added.
      res.setHeader("x-request-id", requestIdOf(request));
      for (const [name, value] of Object.entries(request.plugins["dispatch-rate-limit"] ?? {}))
        res.setHeader(name, value);
      const caller = (request.auth.credentials?.principal as Caller | undefined) ?? null;
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
  };
};
export default route;
