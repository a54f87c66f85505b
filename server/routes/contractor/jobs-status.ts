import { contractorCallerOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ jobs }) =>
  operationRoute("updateJobStatus", {
    handle: async ({ params, payload }, { caller, origin }) => ({
      status: 200,
      body: await jobs.report(contractorCallerOf(caller), params.id, payload, origin),
    }),
  });
export default route;
