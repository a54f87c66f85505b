import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ keys }) => ({
  method: "POST",
  path: "/api/admin/v1/keys",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: validators.createApiKey,
  },
  handler: async (request, h) =>
    h
      .response(await keys.issue(request.payload as Parameters<typeof keys.issue>[0]))
      .code(201)
      .header("cache-control", "no-store"),
});
export default route;
