import { validators } from "../../generated/validators.js";
import { callerOf } from "../../plugins/auth.js";
import type { OrderInput } from "../../services/dispatch/orders.js";
import type { RouteFactory } from "../types.js";
import { originOf } from "../origin.js";

const route: RouteFactory = ({ orders }) => ({
  method: "POST",
  path: "/api/dispatch/v1/order",
  options: {
    tags: ["orders"],
    auth: { strategies: ["api-key", "oauth-token"] },
    validate: validators.createOrder,
  },
  handler: async (request, h) => {
    const { status, body, replayed } = await orders.create(callerOf(request)!, request.payload as OrderInput, {
      idempotencyKey: request.headers["idempotency-key"] as string | undefined,
      origin: originOf(request),
      receivedAt: request.info.received,
    });
    const response = h.response(body).code(status).header("location", body.tracking.status_url);
    return replayed ? response.header("idempotent-replayed", "true") : response;
  },
});
export default route;
