import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { answerEvents } from "../event-response.js";
import { originOf } from "../../plugins/origin.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = (services) =>
  operationRoute("listOrderEvents", {
    handler: async (request, h, { params, query }) => {
      const tenant = keyTenantOf(request);
      await services.orders.get(tenant, params.id, originOf(request)); // 404 unless the tenant's own order
      return answerEvents(services, request, h, { ...tenant, orderId: params.id }, query);
    },
  });
export default route;
