import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ contractors }) =>
  operationRoute("createContractor", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (_request, h, { payload }) => reply(h, "createContractor", 201, await contractors.create(payload)),
  });
export default route;
