import { contractorCallerOf } from "../../services/access/principal.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";
import { linkNext } from "../next-link.js";
import { callerOf } from "../../plugins/auth.js";

const route: RouteFactory = ({ offers }) =>
  operationRoute("listContractorOffers", {
    handler: async (request, h, { query }) => {
      const page = await offers.list(contractorCallerOf(callerOf(request)), query);
      return linkNext(request, reply(h, "listContractorOffers", 200, page), page.next_cursor);
    },
  });
export default route;
