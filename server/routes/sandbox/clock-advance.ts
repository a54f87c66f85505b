import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ sandbox }) =>
  operationRoute("advanceSandboxClock", {
    handler: async (request, h, { payload }) =>
      reply(h, "advanceSandboxClock", 200, await sandbox.advanceClock(keyTenantOf(request), payload)),
  });
export default route;
