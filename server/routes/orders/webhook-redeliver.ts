import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";

// redeliverWebhookDelivery: queue one of the account's deliveries again, for an attempt now.
const route: RouteFactory = ({ webhooks }) => ({
  method: "POST",
  path: "/api/dispatch/v1/webhooks/deliveries/{id}/redeliver",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: validators.redeliverWebhookDelivery,
  },
  handler: async (request, h) => {
    return h.response(await webhooks.redeliver(keyTenantOf(request), request.params.id as string)).code(202);
  },
});
export default route;
