import { tenantOfKey } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ orders }) =>
  operationRoute("rescheduleOrder", {
    handle: async ({ params, payload }, { caller, origin }) => ({
      status: 200,
      body: await orders.reschedule(tenantOfKey(caller), params.id, payload, origin),
    }),
  });
export default route;
