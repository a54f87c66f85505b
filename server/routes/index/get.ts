import { tradeIndex } from "../../services/dispatch/pricing.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = () => ({
  method: "GET",
  path: "/api/dispatch/index",
  options: { auth: false, tags: ["index"] },
  handler: () => tradeIndex(),
});
export default route;
