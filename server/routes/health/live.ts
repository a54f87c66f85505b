import { contractVersion } from "../../contract-version.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = () => ({
  method: "GET",
  path: "/healthz",
  options: { auth: false, tags: ["health"], plugins: { rateLimit: "none" } },
  handler: () => ({ status: "ok", version: contractVersion }),
});
export default route;
