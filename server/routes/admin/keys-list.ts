import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ keys }) =>
  operationRoute("listApiKeys", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (_request, h, { query }) => reply(h, "listApiKeys", 200, await keys.list(query)),
  });
export default route;
