import { contractorCallerOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ offers }) =>
  operationRoute("declineOffer", {
    handle: async ({ params, payload }, { caller, origin }) => ({
      status: 200,
      body: await offers.decline(contractorCallerOf(caller), params.id, payload, origin),
    }),
  });
export default route;
