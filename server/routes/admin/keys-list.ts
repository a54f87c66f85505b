import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ keys }) => ({
  method: "GET",
  path: "/api/admin/v1/keys",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: validators.listApiKeys,
  },
  handler: (request) => keys.list(request.query as Parameters<typeof keys.list>[0]),
});
export default route;
