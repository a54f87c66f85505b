import type { RouteFactory } from "../types.js";
import { contractVersion } from "../../contract-version.js";

const route: RouteFactory = ({ health }) => ({
  method: "GET",
  path: "/readyz",
  options: { auth: false, tags: ["health"], plugins: { rateLimit: "none" } },
  handler: async () => {
    await health.assertReady();
    return { status: "ok", version: contractVersion, checks: { database: "ok" } };
  },
});
export default route;
