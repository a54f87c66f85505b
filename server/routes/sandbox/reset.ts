import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ sandbox }) =>
  operationRoute("resetSandbox", {
    handler: async (request, h) => reply(h, "resetSandbox", 200, await sandbox.reset(keyTenantOf(request))),
  });
export default route;
