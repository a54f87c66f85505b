import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ sandbox }) =>
  operationRoute("advanceSandboxOrder", {
    validate: { ...validators.advanceSandboxOrder, payload: validators.advanceSandboxOrder.payload.allow(null) },
    handler: async (request, h, { params, payload }) => {
      const to = payload?.to; // the body is optional: no body (null) is one step
      return reply(h, "advanceSandboxOrder", 200, await sandbox.advance(keyTenantOf(request), params.id, to));
    },
  });
export default route;
