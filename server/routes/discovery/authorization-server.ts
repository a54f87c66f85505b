import { authorizationServerMetadata } from "../../services/agents/mcp.js";
import type { RouteFactory } from "../types.js";
import { baseUrlOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ config }) => ({
  method: "GET",
  path: "/.well-known/oauth-authorization-server",
  options: { auth: false, tags: ["discovery"] },
  handler: (request) => authorizationServerMetadata(baseUrlOf(request, config.publicBaseUrl)),
});
export default route;
