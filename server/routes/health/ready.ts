import type { RouteFactory } from "../types.js";
import { contractVersion } from "../../contract-version.js";

const route: RouteFactory = ({ health }) => ({
  method: "GET",
  path: "/readyz",
  options: { auth: false, tags: ["health"], plugins: { rateLimit: "none" } },
  handler: async () => ({ status: "ok", version: contractVersion, checks: await health.assertReady() }),
});
export default route;
