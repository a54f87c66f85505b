import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ keys }) => ({
  method: "DELETE",
  path: "/api/admin/v1/keys/{id}",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: validators.revokeApiKey,
  },
  handler: (request) => keys.revoke(request.params.id as string),
});
export default route;
