import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ contractors }) =>
  operationRoute("listContractors", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (_request, h, { query }) => reply(h, "listContractors", 200, await contractors.list(query)),
  });
export default route;
