import Joi from "joi";
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
    validate: {
      params: Joi.object({ id: Joi.string().min(1).max(100) }),
      payload: Joi.object({
        status: Joi.string()
          .valid("pending_dispatch", "dispatched", "en_route", "on_site", "completed", "cancelled")
          .required(),
        final_cost_cents: Joi.number().integer().min(0),
        note: Joi.string().max(2000),
        human_override: Joi.boolean().default(false),
        contractor_id: Joi.string().max(100),
      }),
    },
  },
  handler: async (request, h) => {
    const base = baseUrlOf(request, config.publicBaseUrl);
    return h
      .response(await orderLifecycle.record(request.params.id as string, request.payload as OrderEventInput, base))
      .code(201);
  },
});
export default route;
