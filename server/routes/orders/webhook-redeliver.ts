import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

// redeliverWebhookDelivery: queue one of the account's deliveries again, for an attempt now.
const route: RouteFactory = ({ webhooks }) =>
  operationRoute("redeliverWebhookDelivery", {
    handler: async (request, h, { params }) =>
      reply(h, "redeliverWebhookDelivery", 202, await webhooks.redeliver(keyTenantOf(request), params.id)),
  });
export default route;
