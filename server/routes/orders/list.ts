import Joi from "joi";
import { principalOf } from "../../plugins/auth.js";
import type { OrderListFilter } from "../../services/dispatch/order-list.js";
import { pageQuery, trade } from "../schemas.js";
import type { RouteFactory } from "../types.js";
import { originOf } from "../origin.js";

const statuses = [
  "accepted_pending_fulfilment",
  "pending_dispatch",
  "dispatched",
  "en_route",
  "on_site",
  "completed",
  "cancelled",
];

const route: RouteFactory = ({ customerOrders }) => ({
  method: "GET",
  path: "/api/dispatch/v1/orders",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: {
      query: Joi.object({
        status: Joi.array()
          .items(Joi.string().valid(...statuses))
          .max(7)
          .single(),
        trade,
        reference_id: Joi.string().min(1).max(255),
        created_after: Joi.date().iso(),
        created_before: Joi.date().iso(),
        ...pageQuery,
        cursor: Joi.string().min(1).max(200),
      }),
    },
  },
  handler: async (request, h) => {
    const filter = request.query as unknown as OrderListFilter;
    const page = await customerOrders.list(principalOf(request), filter, originOf(request));
    const response = h.response(page);
    if (page.next_cursor) {
      const next = new URL(request.url.pathname + request.url.search, originOf(request));
      next.searchParams.set("cursor", page.next_cursor);
      response.header("link", `<${next.toString()}>; rel="next"`);
    }
    return response;
  },
});
export default route;
