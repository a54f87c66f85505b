import { contractorCallerOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ orders }) =>
  operationRoute("updateJobStatus", {
    handle: async ({ params, payload }, { caller, origin }) => ({
      status: 200,
      body: await orders.jobs.report(contractorCallerOf(caller), params.id, payload, origin),
    }),
  });
export default route;
