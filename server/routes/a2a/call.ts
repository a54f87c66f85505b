import Boom from "@hapi/boom";
import type { Request, ResponseToolkit } from "@hapi/hapi";
import { createA2aService, type A2aService } from "../../services/agents/a2a.js";
import type { Caller } from "../../services/agents/run-capability.js";
import type { RouteFactory } from "../types.js";
import { originOf } from "../origin.js";

/** Resolves x-api-key or Bearer before the rate limiter runs, so limits count per key; a bad one is 401. */
function authenticate(a2a: A2aService) {
  return async (request: Request, h: ResponseToolkit) => {
    const apiKey = request.headers["x-api-key"] as string | undefined;
    const authorization = request.headers.authorization as string | undefined;
    if (!apiKey && !authorization) return h.continue;
    const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
    const caller = apiKey
      ? await a2a.resolveCredential(apiKey, "x-api-key")
      : bearer
        ? await a2a.resolveCredential(bearer, "bearer")
        : null;
    if (!caller && apiKey)
      throw Boom.unauthorized("Invalid or revoked API key.", "ApiKey", { realm: "dispatch", header: "x-api-key" });
    if (!caller)
      throw Boom.unauthorized("Invalid or expired access token (API keys go in x-api-key).", "Bearer", {
        realm: "dispatch",
      });
    request.auth.credentials = { principal: caller };
    return h.continue;
  };
}

const route: RouteFactory = (services) => {
  const a2a = createA2aService(services);
  return {
    method: "POST",
    path: "/api/a2a",
    options: {
      auth: false,
      tags: ["a2a"],
      plugins: { rateLimit: "default" },
      ext: { onPreAuth: { method: authenticate(a2a) } },
      payload: {
        allow: "application/json",
        failAction: (_request, h) =>
          h
            .response({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })
            .code(400)
            .takeover(),
      },
    },
    handler: (request) =>
      a2a.handle((request.payload ?? {}) as Record<string, unknown>, {
        caller: (request.auth.credentials?.principal as Caller | undefined) ?? null,
        origin: originOf(request),
        receivedAt: request.info.received,
        requestedVersion: request.headers["a2a-version"] as string | undefined,
        log: (error) => {
          request.log(["error", "a2a"], error as object);
        },
      }),
  };
};
export default route;
