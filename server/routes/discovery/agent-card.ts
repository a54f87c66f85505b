import type { RouteFactory } from "../types.js";
import { baseUrlOf } from "../../plugins/origin.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ config }) =>
  operationRoute("getAgentCard", {
    // The card is built with the A2A SDK's types, which load on first use rather than at start.
    handler: async (request) => {
      const { agentCardJson } = await import("../../services/agents/agent-card.js");
      return agentCardJson(baseUrlOf(request, config.publicBaseUrl));
    },
  });
export default route;
