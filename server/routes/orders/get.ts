import Joi from "joi";
import { principalOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { originOf } from "../origin.js";

const route: RouteFactory = ({ orders }) => ({
  method: "GET",
  path: "/api/dispatch/v1/orders/{id}",
  options: {
    tags: ["orders"],
    auth: "api-key",
    validate: { params: Joi.object({ id: Joi.string().min(1).max(100) }) },
  },
  handler: (request) => orders.get(principalOf(request), request.params.id as string, originOf(request)),
});
export default route;
