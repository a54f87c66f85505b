import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";

// rotateWebhookSecret: a new signing secret for the key's account and environment; the replaced one still signs for 24 h.
const route: RouteFactory = ({ webhooks }) => ({
  method: "POST",
  path: "/api/dispatch/v1/webhooks/secret/rotate",
  options: {
    tags: ["orders"],
    auth: "api-key",
  },
  handler: async (request, h) => {
    return h.response(await webhooks.rotateSecret(keyTenantOf(request))).header("cache-control", "no-store");
  },
});
export default route;
