import { callerOf } from "../../plugins/auth.js";
import { keyCallerOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";
import { originOf } from "../../plugins/origin.js";

const route: RouteFactory = ({ orders }) =>
  operationRoute("createOrder", {
    handler: async (request, h, { payload }) => {
      const idempotencyKey: unknown = request.headers["idempotency-key"];
      const { body, replayed } = await orders.create(keyCallerOf(callerOf(request)), payload, {
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
