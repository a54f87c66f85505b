import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";
import { contractRoute, reply } from "../contract-route.js";

const route: RouteFactory = ({ contractors }) =>
  contractRoute("listContractors", {
    method: "GET",
    path: "/api/admin/v1/contractors",
    options: {
      auth: "admin",
      tags: ["admin"],
      plugins: { rateLimit: "none" },
      validate: validators.listContractors,
    },
    handler: async (_request, h, { query }) => reply(h, "listContractors", 200, await contractors.list(query)),
  });
export default route;
