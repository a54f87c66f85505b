import Joi from "joi";
import { principalOf } from "../../plugins/auth.js";
import type { SandboxStatus } from "../../services/dispatch/sandbox.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ sandbox }) => ({
  method: "POST",
  path: "/api/dispatch/v1/sandbox/orders/{id}/advance",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: {
      params: Joi.object({ id: Joi.string().min(1).max(100) }),
      payload: Joi.object({
        to: Joi.string().valid("pending_dispatch", "dispatched", "en_route", "on_site", "completed"),
      }).allow(null),
    },
  },
  handler: (request) => {
    const to = (request.payload as { to?: SandboxStatus } | null)?.to;
    return sandbox.advance(principalOf(request), request.params.id as string, to);
  },
});
export default route;
