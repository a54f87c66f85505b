import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ metrics }) => ({
  method: "GET",
  path: "/api/admin/v1/metrics",
  options: { auth: "admin", tags: ["admin"], plugins: { rateLimit: "none" } },
  handler: async (_request, h) => {
    const { contentType, text } = await metrics.exposition();
    return h.response(text).type(contentType).header("cache-control", "no-store");
  },
});
export default route;
