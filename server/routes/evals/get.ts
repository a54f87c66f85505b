import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ evals }) =>
  operationRoute("getEvals", {
    options: { plugins: { rateLimit: "none" } },
    handle: async ({ query }) => ({ status: 200, body: await evals.document(query.period) }),
  });
export default route;
