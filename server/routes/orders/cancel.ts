import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { CancelInput } from "../../services/dispatch/customer-orders.js";
import type { RouteFactory } from "../types.js";
import { originOf } from "../origin.js";

const route: RouteFactory = ({ customerOrders }) => ({
  method: "POST",
  path: "/api/dispatch/v1/orders/{id}/cancel",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: validators.cancelOrder,
  },
  handler: (request) =>
    customerOrders.cancel(
      keyTenantOf(request),
      request.params.id as string,
      request.payload as CancelInput,
      originOf(request),
    ),
});
export default route;
