import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ contractors }) => ({
  method: "GET",
  path: "/api/admin/v1/contractors",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: validators.listContractors,
  },
  handler: (request) => contractors.list(request.query as Parameters<typeof contractors.list>[0]),
});
export default route;
