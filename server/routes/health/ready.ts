import type { RouteFactory } from "../types.js";
import { contractVersion } from "../../contract-version.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ health }) =>
  operationRoute("getReadiness", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (_request, h) =>
      reply(h, "getReadiness", 200, { status: "ok", version: contractVersion, checks: await health.assertReady() }),
  });
export default route;
