import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { SandboxStatus } from "../../services/dispatch/sandbox.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ sandbox }) => ({
  method: "POST",
  path: "/api/dispatch/v1/sandbox/orders/{id}/advance",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: { ...validators.advanceSandboxOrder, payload: validators.advanceSandboxOrder.payload.allow(null) },
  },
  handler: (request) => {
    const to = (request.payload as { to?: SandboxStatus } | null)?.to;
    return sandbox.advance(keyTenantOf(request), request.params.id as string, to);
  },
});
export default route;
