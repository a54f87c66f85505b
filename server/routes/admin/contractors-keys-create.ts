import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";
import { DomainError } from "../../services/errors.js";

const route: RouteFactory = ({ keys, contractors }) =>
  operationRoute("createContractorKey", {
    options: { plugins: { rateLimit: "none" } },
    handler: async (_request, h, { params, payload }) => {
      if (!(await contractors.get(params.id)))
        throw new DomainError("not_found", "not_found", `No contractor ${params.id}.`);
      const issued = await keys.issueForContractor(params.id, payload);
      return reply(h, "createContractorKey", 201, issued).header("cache-control", "no-store");
    },
  });
export default route;
