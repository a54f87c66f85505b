import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

// rotateWebhookSecret: a new signing secret for the key's account and environment; the replaced one still signs for 24 h.
const route: RouteFactory = ({ webhooks }) =>
  operationRoute("rotateWebhookSecret", {
    handler: async (request, h) =>
      reply(h, "rotateWebhookSecret", 200, await webhooks.rotateSecret(keyTenantOf(request))).header(
        "cache-control",
        "no-store",
      ),
  });
export default route;
