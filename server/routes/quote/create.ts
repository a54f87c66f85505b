import { validators } from "../../generated/validators.js";
import { callerOf } from "../../plugins/auth.js";
import { tenantOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ quotes }) => ({
  method: "POST",
  path: "/api/dispatch/v1/quote",
  options: {
    tags: ["quote"],
    auth: { strategies: ["api-key", "oauth-token"] },
    validate: validators.createQuote,
  },
  handler: (request) => {
    const caller = callerOf(request)!;
    return quotes.create(
      { id: caller.id, tenant: tenantOf(caller) },
      request.payload as Parameters<typeof quotes.create>[1],
    );
  },
});
export default route;
