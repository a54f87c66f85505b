import { tenantOfKey } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ orders }) =>
  operationRoute("getOrder", {
    handle: async ({ params }, { caller, origin }) => ({
      status: 200,
      body: await orders.get(tenantOfKey(caller), params.id, origin),
    }),
  });
export default route;
