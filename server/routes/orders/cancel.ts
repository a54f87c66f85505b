import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { contractRoute, reply } from "../contract-route.js";
import { originOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ orders }) =>
  contractRoute("cancelOrder", {
    method: "POST",
    path: "/api/dispatch/v1/orders/{id}/cancel",
    options: {
      tags: ["orders"],
      auth: "api-key",
      validate: validators.cancelOrder,
    },
    handler: async (request, h, { params, payload }) => {
      const order = await orders.cancel(keyTenantOf(request), params.id, payload, originOf(request));
      return reply(h, "cancelOrder", 200, order);
    },
  });
export default route;
