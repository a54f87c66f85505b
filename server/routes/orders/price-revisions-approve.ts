import { tenantOfKey } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ revisions }) =>
  operationRoute("approvePriceRevision", {
    handle: async ({ params }, { caller, origin }) => ({
      status: 200,
      body: await revisions.approve(tenantOfKey(caller), { id: params.id, revisionId: params.revision_id }, origin),
    }),
  });
export default route;
