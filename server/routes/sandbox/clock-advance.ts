import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ orders }) =>
  operationRoute("advanceSandboxClock", {
    handler: async (request, h, { payload }) =>
      reply(h, "advanceSandboxClock", 200, await orders.advanceSandboxClock(keyTenantOf(request), payload)),
  });
export default route;
