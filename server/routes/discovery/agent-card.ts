import { agentCardJson } from "../../services/agent-card.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ config }) => ({
  method: "GET",
  path: "/.well-known/agent-card.json",
  options: { auth: false, tags: ["discovery"] },
  handler: (request) => agentCardJson(config.publicBaseUrl ?? `${request.server.info.protocol}://${request.info.host}`),
});
export default route;
