import { validators } from "../../generated/validators.js";
import type { OrderEventInput } from "../../services/dispatch/order-lifecycle.js";
import type { RouteFactory } from "../types.js";
import { baseUrlOf } from "../origin.js";

const route: RouteFactory = ({ orderLifecycle, config }) => ({
  method: "POST",
  path: "/api/admin/v1/orders/{id}/events",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: validators.recordOrderEvent,
  },
  handler: async (request, h) => {
    const base = baseUrlOf(request, config.publicBaseUrl);
    return h
      .response(await orderLifecycle.record(request.params.id as string, request.payload as OrderEventInput, base))
      .code(201);
  },
});
export default route;
