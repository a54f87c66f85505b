import { principalOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";

// rotateWebhookSecret: a new signing secret for the key's account; the replaced one still signs for 24 h.
const route: RouteFactory = ({ webhooks }) => ({
  method: "POST",
  path: "/api/dispatch/v1/webhooks/secret/rotate",
  options: {
    tags: ["orders"],
    auth: "api-key",
  },
  handler: async (request, h) => {
    const { account } = principalOf(request) as { account: string };
    return h.response(await webhooks.rotateSecret(account)).header("cache-control", "no-store");
  },
});
export default route;
