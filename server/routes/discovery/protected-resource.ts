import { protectedResourceMetadata } from "../../services/agents/mcp.js";
import type { RouteFactory } from "../types.js";
import { baseUrlOf } from "../origin.js";

const route: RouteFactory = ({ config }) => ({
  method: "GET",
  path: "/.well-known/oauth-protected-resource",
  options: { auth: false, tags: ["discovery"] },
  handler: (request) => protectedResourceMetadata(baseUrlOf(request, config.publicBaseUrl)),
});
export default route;
