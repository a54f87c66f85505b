import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";
import { contractRoute, reply } from "../contract-route.js";

const route: RouteFactory = ({ contractors }) =>
  contractRoute("updateContractor", {
    method: "PATCH",
    path: "/api/admin/v1/contractors/{id}",
    options: {
      auth: "admin",
      tags: ["admin"],
      plugins: { rateLimit: "none" },
      validate: validators.updateContractor,
    },
    handler: async (_request, h, { params, payload }) =>
      reply(h, "updateContractor", 200, await contractors.update(params.id, payload)),
  });
export default route;
