import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ evals }) =>
  operationRoute("getEvals", {
    options: { plugins: { rateLimit: "none" } },
    handler: (_request, _h, { query }) => evals.document(query.period),
  });
export default route;
