import { contractorCallerOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ jobs }) =>
  operationRoute("listJobWindows", {
    handle: async ({ params }, { caller }) => ({
      status: 200,
      body: await jobs.windows(contractorCallerOf(caller), params.id),
    }),
  });
export default route;
