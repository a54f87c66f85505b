import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { answerEvents } from "../event-response.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = (services) =>
  operationRoute("listEvents", {
    handler: (request, h, { query }) => answerEvents(services, request, h, keyTenantOf(request), query),
  });
export default route;
