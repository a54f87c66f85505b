import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

// getAccountWebhookSecret: the key's own account's signing secret (self-serve twin of the admin getWebhookSecret).
const route: RouteFactory = ({ webhooks }) =>
  operationRoute("getAccountWebhookSecret", {
    handler: async (request, h) =>
      reply(h, "getAccountWebhookSecret", 200, await webhooks.secretFor(keyTenantOf(request))).header(
        "cache-control",
        "no-store",
      ),
  });
export default route;
