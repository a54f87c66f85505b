import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";
import { originOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ orders }) =>
  operationRoute("getOrder", {
    handler: async (request, h, { params }) =>
      reply(h, "getOrder", 200, await orders.get(keyTenantOf(request), params.id, originOf(request))),
  });
export default route;
