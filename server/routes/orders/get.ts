import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { contractRoute, reply } from "../contract-route.js";
import { originOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ orders }) =>
  contractRoute("getOrder", {
    method: "GET",
    path: "/api/dispatch/v1/orders/{id}",
    options: {
      tags: ["orders"],
      auth: "api-key",
      validate: validators.getOrder,
    },
    handler: async (request, h, { params }) =>
      reply(h, "getOrder", 200, await orders.get(keyTenantOf(request), params.id, originOf(request))),
  });
export default route;
