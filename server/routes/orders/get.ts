import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { originOf } from "../origin.js";

const route: RouteFactory = ({ orders }) => ({
  method: "GET",
  path: "/api/dispatch/v1/orders/{id}",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: validators.getOrder,
  },
  handler: (request) => orders.get(keyTenantOf(request), request.params.id as string, originOf(request)),
});
export default route;
