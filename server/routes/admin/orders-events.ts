import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";
import { contractRoute, reply } from "../contract-route.js";
import { baseUrlOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ orders, config }) =>
  contractRoute("recordOrderEvent", {
    method: "POST",
    path: "/api/admin/v1/orders/{id}/events",
    options: {
      auth: "admin",
      tags: ["admin"],
      plugins: { rateLimit: "none" },
      validate: validators.recordOrderEvent,
    },
    handler: async (request, h, { params, payload }) => {
      const base = baseUrlOf(request, config.publicBaseUrl);
      return reply(h, "recordOrderEvent", 201, await orders.recordEvent(params.id, payload, base));
    },
  });
export default route;
