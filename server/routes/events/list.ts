import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { answerEvents } from "../event-response.js";

const route: RouteFactory = (services) => ({
  method: "GET",
  path: "/api/dispatch/v1/events",
  options: { tags: ["orders"], auth: "api-key", validate: validators.listEvents },
  handler: (request, h) => {
    return answerEvents(services, request, h, keyTenantOf(request));
  },
});
export default route;
