import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";
import { baseUrlOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ orders, config }) =>
  operationRoute("recordOrderEvent", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (request, h, { params, payload }) => {
      const base = baseUrlOf(request, config.publicBaseUrl);
      return reply(h, "recordOrderEvent", 201, await orders.recordEvent(params.id, payload, base));
    },
  });
export default route;
