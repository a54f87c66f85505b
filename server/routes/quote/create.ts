import { validators } from "../../generated/validators.js";
import { callerOf } from "../../plugins/auth.js";
import { tenantOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { contractRoute, reply } from "../contract-route.js";

const route: RouteFactory = ({ quotes }) =>
  contractRoute("createQuote", {
    method: "POST",
    path: "/api/dispatch/v1/quote",
    options: {
      tags: ["quote"],
      auth: { strategies: ["api-key", "oauth-token"] },
      validate: validators.createQuote,
    },
    handler: async (request, h, { payload }) => {
      const caller = callerOf(request)!;
      return reply(h, "createQuote", 200, await quotes.create({ id: caller.id, tenant: tenantOf(caller) }, payload));
    },
  });
export default route;
