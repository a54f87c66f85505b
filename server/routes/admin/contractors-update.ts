import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ contractors }) =>
  operationRoute("updateContractor", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (_request, h, { params, payload }) =>
      reply(h, "updateContractor", 200, await contractors.update(params.id, payload)),
  });
export default route;
