import type { Request } from "@hapi/hapi";
import { callerOf } from "../../plugins/auth.js";
import { isParseError } from "../../plugins/errors.js";
import type { A2aService } from "../../services/agents/a2a.js";
import { a2aCosts } from "../../services/agents/a2a-costs.js";
import type { RouteFactory } from "../types.js";
import { invalidSingleRequest, tooDeep } from "../json-rpc.js";
import { originOf } from "../../plugins/origin.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = (services, handlers) => {
  // The A2A service and its SDK load with the first A2A request: importing them is a good part of start-up.
  let a2a: Promise<A2aService> | undefined;
  const loadA2a = () =>
    (a2a ??= import("../../services/agents/a2a.js").then(({ createA2aService }) =>
      createA2aService(services, handlers),
    ));
  return operationRoute("callA2a", {
    // One strategy reads both of the contract's A2A credentials (a key or a token, each optional) from
    // `Authorization: Bearer` as A2A clients send them, beside x-api-key.
    auth: { strategy: "a2a", mode: "optional" },
    validate: null, // JSON-RPC: a bad message is -32600 from the checks below and the SDK, not a 422
    options: {
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
    handler: async (request, h) => {
      // A2A has no batches: anything but one JSON-RPC request object is -32600 before the SDK reads it.
      const refused = tooDeep(request.payload) ?? invalidSingleRequest(request.payload);
      if (refused) return h.response(refused).code(400);
      return (await loadA2a()).handle(request.payload as Record<string, unknown>, {
        caller: callerOf(request),
        origin: originOf(request),
        receivedAt: request.info.received,
        requestedVersion: request.headers["a2a-version"] as string | undefined,
        log: (error) => {
          request.log(["error", "a2a"], error as object);
        },
      });
    },
  });
};
export default route;
