import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ contractors }) => ({
  method: "PATCH",
  path: "/api/admin/v1/contractors/{id}",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: validators.updateContractor,
  },
  handler: (request) =>
    contractors.update(request.params.id as string, request.payload as Parameters<typeof contractors.update>[1]),
});
export default route;
