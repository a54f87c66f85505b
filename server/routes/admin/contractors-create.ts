import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ contractors }) => ({
  method: "POST",
  path: "/api/admin/v1/contractors",
  options: { auth: "admin", tags: ["admin"], plugins: { rateLimit: "none" }, validate: validators.createContractor },
  handler: async (request, h) =>
    h.response(await contractors.create(request.payload as Parameters<typeof contractors.create>[0])).code(201),
});
export default route;
