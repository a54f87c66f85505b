import { keyTenantOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const route: RouteFactory = ({ auditRecords }) =>
  operationRoute("listAuditRecords", {
    handler: async (request, h, { query }) =>
      reply(h, "listAuditRecords", 200, await auditRecords.list(keyTenantOf(request), query)),
  });
export default route;
