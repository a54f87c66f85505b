import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";
import { originOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ orders }) =>
  operationRoute("cancelOrder", {
    handler: async (request, h, { params, payload }) => {
      const order = await orders.cancel(keyTenantOf(request), params.id, payload, originOf(request));
      return reply(h, "cancelOrder", 200, order);
    },
  });
export default route;
