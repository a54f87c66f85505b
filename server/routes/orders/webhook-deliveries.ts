import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { DeliveryFilter } from "../../services/webhooks/deliveries.js";
import type { RouteFactory } from "../types.js";
import { linkNext } from "../next-link.js";

// listWebhookDeliveries: the key's account's webhook deliveries, newest first, paged like listOrders.
const route: RouteFactory = ({ webhooks }) => ({
  method: "GET",
  path: "/api/dispatch/v1/webhooks/deliveries",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: validators.listWebhookDeliveries,
  },
  handler: async (request, h) => {
    const page = await webhooks.deliveries(keyTenantOf(request), request.query as unknown as DeliveryFilter);
    return linkNext(request, h.response(page), page.next_cursor);
  },
});
export default route;
