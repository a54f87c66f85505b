import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";
import { contractRoute, reply } from "../contract-route.js";

const route: RouteFactory = ({ contractors }) =>
  contractRoute("createContractor", {
    method: "POST",
    path: "/api/admin/v1/contractors",
    options: { auth: "admin", tags: ["admin"], plugins: { rateLimit: "none" }, validate: validators.createContractor },
    handler: async (_request, h, { payload }) => reply(h, "createContractor", 201, await contractors.create(payload)),
  });
export default route;
