import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { contractRoute, reply } from "../contract-route.js";
import { linkNext } from "../next-link.js";
import { originOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ orders }) =>
  contractRoute("listOrders", {
    method: "GET",
    path: "/api/dispatch/v1/orders",
    options: {
      tags: ["orders"],
      auth: "api-key",
      validate: validators.listOrders,
    },
    handler: async (request, h, { query }) => {
      const page = await orders.list(keyTenantOf(request), query, originOf(request));
      return linkNext(request, reply(h, "listOrders", 200, page), page.next_cursor);
    },
  });
export default route;
