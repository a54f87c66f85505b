import { validators } from "../../generated/validators.js";
import { principalOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { answerEvents } from "../event-response.js";
import { originOf } from "../origin.js";

const route: RouteFactory = (services) => ({
  method: "GET",
  path: "/api/dispatch/v1/orders/{id}/events",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: validators.listOrderEvents,
  },
  handler: async (request, h) => {
    const principal = principalOf(request);
    const id = request.params.id as string;
    await services.orders.get(principal, id, originOf(request)); // 404 unless the caller's own order
    const { account, environment } = principal as Extract<typeof principal, { kind: "key" }>;
    return answerEvents(services, request, h, { account, environment, orderId: id });
  },
});
export default route;
