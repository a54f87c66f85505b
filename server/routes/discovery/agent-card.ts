import { agentCardJson } from "../../services/agents/agent-card.js";
import type { RouteFactory } from "../types.js";
import { baseUrlOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ config }) => ({
  method: "GET",
  path: "/.well-known/agent-card.json",
  options: { auth: false, tags: ["discovery"] },
  handler: (request) => agentCardJson(baseUrlOf(request, config.publicBaseUrl)),
});
export default route;
