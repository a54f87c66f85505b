import { validators } from "../../generated/validators.js";
import { principalOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { answerEvents } from "../event-response.js";

const route: RouteFactory = (services) => ({
  method: "GET",
  path: "/api/dispatch/v1/events",
  options: { tags: ["orders"], auth: "api-key", validate: validators.listEvents },
  handler: (request, h) => {
    const principal = principalOf(request);
    // credentials without an account (OAuth) own no orders: a tenant no key can have
    const tenant =
      principal.kind === "key"
        ? { account: principal.account, environment: principal.environment }
        : { account: "\u0000none", environment: "test" as const };
    return answerEvents(services, request, h, tenant);
  },
});
export default route;
