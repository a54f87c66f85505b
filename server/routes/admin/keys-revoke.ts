import Joi from "joi";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ keys }) => ({
  method: "DELETE",
  path: "/api/admin/v1/keys/{id}",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: { params: Joi.object({ id: Joi.string().max(100) }) },
  },
  handler: (request) => keys.revoke(request.params.id as string),
});
export default route;
