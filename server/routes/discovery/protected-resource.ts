import { protectedResourceMetadata } from "../../services/agents/mcp.js";
import type { RouteFactory } from "../types.js";
import { baseUrlOf } from "../../plugins/origin.js";
import { operationRoute } from "../operation-route.js";

// RFC 9728 §3.1: the metadata of resource `<base><path>` lives at `/.well-known/oauth-protected-resource<path>`,
// and §3.3 requires its `resource` to be exactly that identifier, so the root and /api/mcp each get their own.
const route: RouteFactory = ({ config }) =>
  (
    [
      ["getProtectedResourceMetadata", ""],
      ["getMcpProtectedResourceMetadata", "/api/mcp"],
    ] as const
  ).map(([operationId, resourcePath]) =>
    operationRoute(operationId, {
      handler: (request) => protectedResourceMetadata(baseUrlOf(request, config.publicBaseUrl), resourcePath),
    }),
  );
export default route;
