import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ auditLog }) =>
  operationRoute("getConsistencyProof", {
    handler: async (_request, h, { query }) =>
      reply(h, "getConsistencyProof", 200, await auditLog.consistency(query.first, query.second)),
  });
export default route;
