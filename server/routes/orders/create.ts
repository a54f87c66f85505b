import { validators } from "../../generated/validators.js";
import { callerOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { contractRoute, reply } from "../contract-route.js";
import { originOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ orders }) =>
  contractRoute("createOrder", {
    method: "POST",
    path: "/api/dispatch/v1/order",
    options: {
      tags: ["orders"],
      auth: { strategies: ["api-key", "oauth-token"] },
      validate: validators.createOrder,
    },
    handler: async (request, h, { payload }) => {
      const idempotencyKey: unknown = request.headers["idempotency-key"];
      const { body, replayed } = await orders.create(callerOf(request)!, payload, {
        idempotencyKey: typeof idempotencyKey === "string" ? idempotencyKey : undefined,
        origin: originOf(request),
        receivedAt: request.info.received,
      });
      const response = reply(h, "createOrder", body.fulfilled ? 201 : 202, body);
      response.header("location", body.tracking.status_url);
      return replayed ? response.header("idempotent-replayed", "true") : response;
    },
  });
export default route;
