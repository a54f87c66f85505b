import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { answerEvents } from "../event-response.js";
import { originOf } from "../../plugins/origin.js";

const route: RouteFactory = (services) => ({
  method: "GET",
  path: "/api/dispatch/v1/orders/{id}/events",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: validators.listOrderEvents,
  },
  handler: async (request, h) => {
    const tenant = keyTenantOf(request);
    const id = String(request.params.id); // validators.listOrderEvents: a string
    await services.orders.get(tenant, id, originOf(request)); // 404 unless the tenant's own order
    return answerEvents(services, request, h, { ...tenant, orderId: id });
  },
});
export default route;
