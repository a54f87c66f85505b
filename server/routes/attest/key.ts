import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ auditLog }) =>
  operationRoute("getLogKey", {
    handler: async (_request, h) => h.response(await auditLog.verifierKey()).type("text/plain; charset=utf-8"),
  });
export default route;
