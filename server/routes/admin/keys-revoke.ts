import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ keys }) =>
  operationRoute("revokeApiKey", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (_request, h, { params }) => reply(h, "revokeApiKey", 200, await keys.revoke(params.id)),
  });
export default route;
