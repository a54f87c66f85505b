import { contractorCallerOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ revisions }) =>
  operationRoute("requestPriceRevision", {
    handle: async ({ params, payload }, { caller, origin }) => ({
      status: 201,
      body: await revisions.request(contractorCallerOf(caller), params.id, payload, origin),
    }),
  });
export default route;
