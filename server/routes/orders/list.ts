import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { OrderListFilter } from "../../services/dispatch/order-list.js";
import type { RouteFactory } from "../types.js";
import { linkNext } from "../next-link.js";
import { originOf } from "../origin.js";

const route: RouteFactory = ({ customerOrders }) => ({
  method: "GET",
  path: "/api/dispatch/v1/orders",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: validators.listOrders,
  },
  handler: async (request, h) => {
    const filter = request.query as unknown as OrderListFilter;
    const page = await customerOrders.listOrders(keyTenantOf(request), filter, originOf(request));
    return linkNext(request, h.response(page), page.next_cursor);
  },
});
export default route;
