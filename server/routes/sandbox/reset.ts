import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ orders }) => ({
  method: "POST",
  path: "/api/dispatch/v1/sandbox/reset",
  options: {
    tags: ["orders"],
    auth: "api-key",
  },
  handler: (request) => orders.resetSandbox(keyTenantOf(request)),
});
export default route;
