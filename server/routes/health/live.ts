import type { RouteFactory } from "../types.js";

const route: RouteFactory = () => ({
  method: "GET",
  path: "/healthz",
  options: { auth: false, tags: ["health"], plugins: { rateLimit: "none" } },
  handler: () => ({ status: "ok", version: "1.0.0" }),
});
export default route;
