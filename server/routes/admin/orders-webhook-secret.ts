import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";
import type { Environment } from "../../services/access/principal.js";

// getWebhookSecret: the Standard Webhooks secret that signs an account's order webhooks.
const route: RouteFactory = ({ webhooks }) => ({
  method: "GET",
  path: "/api/admin/v1/accounts/{account}/webhook-secret",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: validators.getWebhookSecret,
  },
  handler: async (request, h) => {
    const environment = (request.query.environment as Environment | undefined) ?? "live";
    const tenant = { account: request.params.account as string, environment };
    return h.response(await webhooks.secretFor(tenant)).header("cache-control", "no-store");
  },
});
export default route;
