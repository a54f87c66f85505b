import { keyCallerOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ orders }) =>
  operationRoute("createOrder", {
    handle: async ({ payload }, { caller, origin, receivedAt, idempotencyKey }) => {
      const { body, replayed } = await orders.create(keyCallerOf(caller), payload, {
        idempotencyKey,
        origin,
        receivedAt,
      });
      const headers = { location: body.tracking.status_url, ...(replayed ? { "idempotent-replayed": "true" } : {}) };
      return body.fulfilled ? { status: 201, body, headers } : { status: 202, body, headers };
    },
  });
export default route;
