import { authorizationServerMetadata } from "../../services/mcp.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ config }) => ({
  method: "GET",
  path: "/.well-known/oauth-authorization-server",
  options: { auth: false, tags: ["discovery"] },
  handler: (request) => authorizationServerMetadata(config.publicBaseUrl ?? `${request.server.info.protocol}://${request.info.host}`),
});
export default route;
