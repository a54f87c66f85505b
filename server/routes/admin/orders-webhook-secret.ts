import Joi from "joi";
import type { RouteFactory } from "../types.js";

// getWebhookSecret: the Standard Webhooks secret that signs an account's order webhooks.
const route: RouteFactory = ({ webhooks }) => ({
  method: "GET",
  path: "/api/admin/v1/accounts/{account}/webhook-secret",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: {
      params: Joi.object({
        account: Joi.string()
          .min(1)
          .max(100)
          .pattern(/^[a-z0-9][a-z0-9._-]*$/),
      }),
    },
  },
  handler: async (request, h) =>
    h.response(await webhooks.secretFor(request.params.account as string)).header("cache-control", "no-store"),
});
export default route;
