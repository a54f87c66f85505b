import Joi from "joi";
import { principalOf } from "../../plugins/auth.js";
import type { OrderInput } from "../../services/dispatch/orders.js";
import { orderLocation, trade, urgency } from "../schemas.js";
import type { RouteFactory } from "../types.js";
import { originOf } from "../origin.js";

const route: RouteFactory = ({ orders }) => ({
  method: "POST",
  path: "/api/dispatch/v1/order",
  options: {
    tags: ["orders"],
    auth: { strategies: ["api-key", "oauth-token"] },
    validate: {
      headers: Joi.object({ "idempotency-key": Joi.string().min(1).max(255) }).unknown(true),
      payload: Joi.object({
        trade: trade.required(),
        location: orderLocation.required(),
        urgency,
        nte_cents: Joi.number().integer().min(1),
        description: Joi.string().min(1).max(5000).required(),
        callback_url: Joi.string().uri({ scheme: ["http", "https"] }),
        reference_id: Joi.string().max(255),
      }),
    },
  },
  handler: async (request, h) => {
    const { status, body, replayed } = await orders.create(principalOf(request), request.payload as OrderInput, {
      idempotencyKey: request.headers["idempotency-key"] as string | undefined,
      origin: originOf(request),
      receivedAt: request.info.received,
    });
    const response = h.response(body).code(status).header("location", body.tracking.status_url);
    return replayed ? response.header("idempotent-replayed", "true") : response;
  },
});
export default route;
