import Joi from "joi";
import { principalOf } from "../../plugins/auth.js";
import type { CancelInput } from "../../services/dispatch/customer-orders.js";
import type { RouteFactory } from "../types.js";
import { originOf } from "../origin.js";

const route: RouteFactory = ({ customerOrders }) => ({
  method: "POST",
  path: "/api/dispatch/v1/orders/{id}/cancel",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: {
      params: Joi.object({ id: Joi.string().min(1).max(100) }),
      payload: Joi.object({
        reason: Joi.string().valid("customer_request", "duplicate", "resolved_elsewhere", "other").required(),
        note: Joi.string().min(1).max(2000),
      }),
    },
  },
  handler: (request) =>
    customerOrders.cancel(
      principalOf(request),
      request.params.id as string,
      request.payload as CancelInput,
      originOf(request),
    ),
});
export default route;
