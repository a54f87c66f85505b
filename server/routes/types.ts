// A route module's default export: builds its Hapi route(s) from the services. `handlers` holds the contract-typed
// handlers of every operation route by operationId (filled once all routes are built): the MCP and A2A endpoints
// call them.
import type { ServerRoute } from "@hapi/hapi";
import type { Services } from "../services/index.js";
import type { OperationHandlers } from "../services/operation-handler.js";

export type RouteFactory = (services: Services, handlers: OperationHandlers) => ServerRoute | ServerRoute[];
