import { contractorCallerOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

const route: RouteFactory = ({ offers }) =>
  operationRoute("acceptOffer", {
    handle: async ({ params }, { caller, origin }) => ({
      status: 200,
      body: await offers.accept(contractorCallerOf(caller), params.id, origin),
    }),
  });
export default route;
