// Serves an operation's contract-typed `handle` (services/operation-handler.ts) over REST: the request's validated
// parts and its context in, the handler's status, body and headers out; and collects the handlers of the built
// routes by operationId, for the MCP tools and A2A skills (routes/index.ts).
import type { Lifecycle, Request, ServerRoute } from "@hapi/hapi";
import { callerOf } from "../plugins/auth.js";
import { originOf } from "../plugins/origin.js";
import type { AnyOperationHandle, OperationContext, OperationHandlers } from "../services/operation-handler.js";
import type { OperationId } from "../types/contract.js";

/** What a handler knows of its REST request. */
export function operationContextOf(request: Request): OperationContext {
  const idempotencyKey: unknown = request.headers["idempotency-key"];
  return {
    caller: callerOf(request),
    origin: originOf(request),
    receivedAt: request.info.received,
    ...(typeof idempotencyKey === "string" ? { idempotencyKey } : {}),
  };
}

/** The Hapi handler of a `handle`: its reply as the response (status, JSON body, headers). */
export function hapiHandlerOf(handle: AnyOperationHandle): Lifecycle.Method {
  return async (request, h) => {
    const input = { params: request.params, query: request.query, payload: request.payload };
    const { status, body, headers } = await handle(input, operationContextOf(request));
    const response = h.response(body as object).code(status);
    for (const [name, value] of Object.entries(headers ?? {})) response.header(name, value);
    return response;
  };
}

/** An empty registry of handlers, and the function that fills it from the built routes. */
export function createOperationHandlers(): {
  handlers: OperationHandlers;
  register: (routes: ServerRoute[]) => void;
} {
  const byId = new Map<string, AnyOperationHandle>();
  return {
    handlers: { handlerOf: (operationId: OperationId) => byId.get(operationId) },
    register: (routes) => {
      for (const route of routes) {
        const options = typeof route.options === "function" ? undefined : route.options;
        if (options?.app?.handle && typeof options.id === "string") byId.set(options.id, options.app.handle);
      }
    },
  };
}
