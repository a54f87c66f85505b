import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ metrics }) =>
  operationRoute("getMetrics", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (_request, h) => {
      const { contentType, text } = await metrics.exposition();
      return h.response(text).type(contentType).header("cache-control", "no-store");
    },
  });
export default route;
