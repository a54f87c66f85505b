// The A2A endpoint (JSON-RPC binding, A2A v1.0): the SDK's DefaultRequestHandler and JsonRpcTransportHandler
// over our executor; the HTTP route only authenticates and hands over the parsed body.
import { A2A_PROTOCOL_VERSION } from "@a2a-js/sdk";
import { UnsupportedOperationError } from "@a2a-js/sdk/errors";
import {
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  validateVersion,
  type User,
} from "@a2a-js/sdk/server";
import { createDispatchExecutor, invokeContextKey } from "./a2a-executor.js";
import { createBoundedTaskStore } from "./a2a-task-store.js";
import { buildAgentCard } from "./agent-card.js";
import type { Services } from "../index.js";
import type { OperationHandlers } from "../operation-handler.js";
import { createCapabilityInvoker, type Caller, type InvokeContext } from "./run-capability.js";
import { baseUrlOf, configuredOrigin } from "../shared/base-url.js";

/** The caller as the SDK sees it; tasks are stored per userName, so callers see only their own tasks. */
class DispatchUser implements User {
  constructor(private readonly caller: Caller | null) {}
  get isAuthenticated() {
    return this.caller !== null;
  }
  get userName() {
    return this.caller?.id ?? "anonymous";
  }
}

export interface A2aContext extends InvokeContext {
  /** The A2A-Version header; absent is taken as this SDK's version (1.0), the only one served. */
  requestedVersion: string | undefined;
  log(error: unknown): void;
}

type JsonRpcBody = { id?: string | number | null } & Record<string, unknown>;

export function createA2aService(services: Pick<Services, "config" | "db" | "quotes">, handlers: OperationHandlers) {
  const invoker = createCapabilityInvoker(services, handlers);
  // This card only drives the handler's checks; /.well-known/agent-card.json serves one with the request's base URL.
  const card = buildAgentCard(baseUrlOf(services.config.publicBaseUrl, configuredOrigin(services.config)));
  const transport = new JsonRpcTransportHandler(
    new DefaultRequestHandler(card, createBoundedTaskStore(services.config.a2aTasks), createDispatchExecutor(invoker)),
  );

  function errorResponse(body: JsonRpcBody, error: unknown) {
    return { jsonrpc: "2.0", id: body?.id ?? null, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
  }

  return {
    async handle(body: JsonRpcBody, ctx: A2aContext) {
      const context = new ServerCallContext({
        user: new DispatchUser(ctx.caller),
        requestedVersion: ctx.requestedVersion ?? A2A_PROTOCOL_VERSION,
        state: new Map<string, unknown>([[invokeContextKey, ctx]]),
      });
      try {
        validateVersion(context.requestedVersion, card, "JSONRPC");
      } catch (error) {
        return errorResponse(body, error);
      }
      const result = await transport.handle(body, context);
      if (Symbol.asyncIterator in result) {
        await result.return(undefined); // streaming methods are refused by the handler first; never stream here
        return errorResponse(body, new UnsupportedOperationError("Streaming is not offered; use SendMessage."));
      }
      return result;
    },
  };
}

export type A2aService = ReturnType<typeof createA2aService>;
