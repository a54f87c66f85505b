import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";

// getAccountWebhookSecret: the key's own account's signing secret (self-serve twin of the admin getWebhookSecret).
const route: RouteFactory = ({ webhooks }) => ({
  method: "GET",
  path: "/api/dispatch/v1/webhooks/secret",
  options: {
    tags: ["orders"],
    auth: "api-key",
  },
  handler: async (request, h) => {
    return h.response(await webhooks.secretFor(keyTenantOf(request))).header("cache-control", "no-store");
  },
});
export default route;
