import { contractVersion } from "../../contract-version.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = () =>
  operationRoute("getHealth", {
    options: { plugins: { rateLimit: "none" } },
    handler: (_request, h) => reply(h, "getHealth", 200, { status: "ok", version: contractVersion }),
  });
export default route;
