import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ keys }) =>
  operationRoute("createApiKey", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (_request, h, { payload }) =>
      reply(h, "createApiKey", 201, await keys.issue(payload)).header("cache-control", "no-store"),
  });
export default route;
