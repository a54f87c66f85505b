import { callerOf } from "../../plugins/auth.js";
import { tenantOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ quotes }) =>
  operationRoute("createQuote", {
    handler: async (request, h, { payload }) => {
      const caller = callerOf(request)!;
      return reply(h, "createQuote", 200, await quotes.create({ id: caller.id, tenant: tenantOf(caller) }, payload));
    },
  });
export default route;
