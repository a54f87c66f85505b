import type { Request } from "@hapi/hapi";
import { callerOf } from "../../plugins/auth.js";
import { isParseError } from "../../plugins/errors.js";
import { a2aCosts, createA2aService } from "../../services/agents/a2a.js";
import type { RouteFactory } from "../types.js";
import { tooDeep } from "../json-rpc.js";
import { originOf } from "../../plugins/origin.js";

const route: RouteFactory = (services) => {
  const a2a = createA2aService(services);
  return {
    method: "POST",
    path: "/api/a2a",
    options: {
      auth: { strategy: "a2a", mode: "optional" },
      tags: ["a2a"],
      plugins: { rateLimit: (request: Request) => a2aCosts(request.payload) },
      payload: {
        allow: "application/json",
        failAction: (_request, h, error) => {
          if (!isParseError(error)) throw error!; // Hapi always passes the error to failAction
          return h
            .response({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })
            .code(400)
            .takeover();
        },
      },
    },
    handler: (request, h) => {
      const deep = tooDeep(request.payload);
      if (deep) return h.response(deep).code(400);
      return a2a.handle((request.payload ?? {}) as Record<string, unknown>, {
        caller: callerOf(request),
        origin: originOf(request),
        receivedAt: request.info.received,
        requestedVersion: request.headers["a2a-version"] as string | undefined,
        log: (error) => {
          request.log(["error", "a2a"], error as object);
        },
      });
    },
  };
};
export default route;
