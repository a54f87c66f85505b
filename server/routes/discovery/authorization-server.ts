import { authorizationServerMetadata } from "../../services/agents/mcp.js";
import type { RouteFactory } from "../types.js";
import { baseUrlOf } from "../../plugins/origin.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ config }) =>
  operationRoute("getAuthorizationServerMetadata", {
    handler: (request) => authorizationServerMetadata(baseUrlOf(request, config.publicBaseUrl)),
  });
export default route;
