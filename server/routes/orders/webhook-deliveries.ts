import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { linkNext } from "../next-link.js";
import { operationRoute, reply } from "../operation-route.js";

// listWebhookDeliveries: the key's account's webhook deliveries, newest first, paged like listOrders.
const route: RouteFactory = ({ webhooks }) =>
  operationRoute("listWebhookDeliveries", {
    handler: async (request, h, { query }) => {
      const page = await webhooks.deliveries(keyTenantOf(request), query);
      return linkNext(request, reply(h, "listWebhookDeliveries", 200, page), page.next_cursor);
    },
  });
export default route;
