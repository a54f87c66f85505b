import Joi from "joi";
import { contractorUpdate } from "../contractor-schemas.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ contractors }) => ({
  method: "PATCH",
  path: "/api/admin/v1/contractors/{id}",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: { params: Joi.object({ id: Joi.string().max(100) }), payload: contractorUpdate },
  },
  handler: (request) =>
    contractors.update(request.params.id as string, request.payload as Parameters<typeof contractors.update>[1]),
});
export default route;
