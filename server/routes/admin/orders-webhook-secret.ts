import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

// getWebhookSecret: the Standard Webhooks secret that signs an account's order webhooks.
const route: RouteFactory = ({ webhooks }) =>
  operationRoute("getWebhookSecret", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (_request, h, { params, query }) => {
      const tenant = { account: params.account, environment: query.environment ?? "live" };
      return reply(h, "getWebhookSecret", 200, await webhooks.secretFor(tenant)).header("cache-control", "no-store");
    },
  });
export default route;
