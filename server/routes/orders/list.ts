import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";
import { linkNext } from "../next-link.js";
import { originOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ orders }) =>
  operationRoute("listOrders", {
    handler: async (request, h, { query }) => {
      const page = await orders.list(keyTenantOf(request), query, originOf(request));
      return linkNext(request, reply(h, "listOrders", 200, page), page.next_cursor);
    },
  });
export default route;
