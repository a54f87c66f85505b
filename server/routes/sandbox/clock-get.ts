import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ sandbox }) =>
  operationRoute("getSandboxClock", {
    handler: async (request, h) => reply(h, "getSandboxClock", 200, await sandbox.clock(keyTenantOf(request))),
  });
export default route;
